import { describe, expect, it } from "vitest";
import { calculateAll } from "./calculations.ts";
import {
  CHART_SYMBOLS,
  type ChartSymbol,
  chartSymbolLabel,
  chartSymbolsAffectedBy,
  chartSymbolValue,
  chartSymbolValues,
  DEFAULT_CHART_SYMBOL,
  isChartSymbol,
} from "./chart-symbol.ts";
import { defaultDuties } from "./instrument.ts";
import { applyQuote, emptyPrices, type Prices } from "./prices.ts";
import { QUOTE_KEYS, type Quote, type QuoteSource } from "./quote.ts";
import { SPREAD_SYMBOLS } from "./symbol.ts";

const QUOTES: Quote[] = [
  { source: "cme", key: "GC", bid: 2650, ask: 2650.4, ts: 1000 },
  { source: "cme", key: "SI", bid: 31.2, ask: 31.23, ts: 1000 },
  { source: "mcx", key: "GOLD", bid: 76400, ask: 76420, ts: 1000 },
  { source: "fx", key: "USDINR", price: 84, ts: 1000 },
  { source: "spot", key: "XAUUSD", price: 2640, ts: 1000 },
  { source: "index", key: "GIFTNIFTY", price: 24150.5, ts: 1000 },
  { source: "index", key: "NIFTY50", price: 24100, ts: 1000 },
];

function pricesOf(quotes: Quote[]): Prices {
  const prices = emptyPrices();
  for (const quote of quotes) applyQuote(prices, quote);
  return prices;
}

describe("chart symbols", () => {
  it("list the ten spreads by instrument, then the spot and index spreads", () => {
    expect(CHART_SYMBOLS).toEqual([
      "GC_BUY",
      "GC_SELL",
      "SI_BUY",
      "SI_SELL",
      "HG_BUY",
      "HG_SELL",
      "NG_BUY",
      "NG_SELL",
      "CL_BUY",
      "CL_SELL",
      "XAU_SPOT",
      "XAG_SPOT",
      "NIFTY",
    ]);
    expect(DEFAULT_CHART_SYMBOL).toBe("GC_BUY");
  });

  it("have select labels", () => {
    expect(CHART_SYMBOLS.map(chartSymbolLabel)).toEqual([
      "Gold Buy",
      "Gold Sell",
      "Silver Buy",
      "Silver Sell",
      "Copper Buy",
      "Copper Sell",
      "Natural Gas Buy",
      "Natural Gas Sell",
      "Crude Oil Buy",
      "Crude Oil Sell",
      "Gold Spot",
      "Silver Spot",
      "NIFTY Index",
    ]);
  });

  it("narrow exact codes only", () => {
    for (const symbol of CHART_SYMBOLS) expect(isChartSymbol(symbol)).toBe(true);
    for (const bad of ["gc_buy", "GC", "XAUUSD", "NIFTY50", "", "toString", 1, null, undefined]) {
      expect(isChartSymbol(bad)).toBe(false);
    }
  });
});

describe("chartSymbolValues", () => {
  it("gives every computable symbol its dashboard value and leaves the rest absent", () => {
    const prices = pricesOf(QUOTES);
    const values = chartSymbolValues(calculateAll(prices, defaultDuties()), prices);
    expect(Object.keys(values).sort()).toEqual(["GC_BUY", "GC_SELL", "NIFTY", "XAU_SPOT"].sort());
    expect(values.GC_BUY).toBeCloseTo(558.38442653, 6);
    // mid 2650.2 − spot 2640; GIFT NIFTY − NIFTY 50
    expect(values.XAU_SPOT).toBeCloseTo(10.2, 9);
    expect(values.NIFTY).toBeCloseTo(50.5, 9);
  });

  it("is empty before any price", () => {
    const prices = emptyPrices();
    expect(chartSymbolValues(calculateAll(prices, defaultDuties()), prices)).toEqual({});
  });

  it("gives each symbol alone what it gives them all together (chartSymbolValue)", () => {
    for (const prices of [pricesOf(QUOTES), emptyPrices()]) {
      const all = chartSymbolValues(calculateAll(prices, defaultDuties()), prices);
      for (const symbol of CHART_SYMBOLS)
        expect(chartSymbolValue(symbol, prices, defaultDuties()), symbol).toBe(all[symbol]);
    }
  });
});

describe("chartSymbolsAffectedBy", () => {
  const affected = (source: QuoteSource, key: string) => chartSymbolsAffectedBy({ source, key });

  it("maps each quote to the chart symbols it can move", () => {
    expect(affected("cme", "GC")).toEqual(["GC_BUY", "GC_SELL", "XAU_SPOT"]);
    expect(affected("cme", "SI")).toEqual(["SI_BUY", "SI_SELL", "XAG_SPOT"]);
    expect(affected("cme", "HG")).toEqual(["HG_BUY", "HG_SELL"]);
    expect(affected("mcx", "GOLD")).toEqual(["GC_BUY", "GC_SELL"]);
    expect(affected("mcx", "CRUDEOIL")).toEqual(["CL_BUY", "CL_SELL"]);
    expect(affected("fx", "USDINR")).toEqual(SPREAD_SYMBOLS);
    expect(affected("spot", "XAUUSD")).toEqual(["XAU_SPOT"]);
    expect(affected("spot", "XAGUSD")).toEqual(["XAG_SPOT"]);
    expect(affected("index", "NIFTY50")).toEqual(["NIFTY"]);
    expect(affected("index", "GIFTNIFTY")).toEqual(["NIFTY"]);
    expect(affected("fx", "EURINR")).toEqual([]);
    expect(affected("cme", "GOLD")).toEqual([]);
  });

  it("names exactly the symbols whose value a quote changes", () => {
    // Move every instrument once from a full book; whatever changed must have been named.
    const all: Quote[] = [
      ...QUOTES,
      { source: "cme", key: "HG", bid: 4.15, ask: 4.152, ts: 1 },
      { source: "cme", key: "NG", bid: 3.25, ask: 3.255, ts: 1 },
      { source: "cme", key: "CL", bid: 70.1, ask: 70.12, ts: 1 },
      { source: "mcx", key: "SILVER", bid: 89500, ask: 89530, ts: 1 },
      { source: "mcx", key: "COPPER", bid: 790, ask: 790.5, ts: 1 },
      { source: "mcx", key: "NATURALGAS", bid: 275, ask: 275.4, ts: 1 },
      { source: "mcx", key: "CRUDEOIL", bid: 5900, ask: 5902, ts: 1 },
      { source: "spot", key: "XAGUSD", price: 31, ts: 1 },
    ];
    const prices = pricesOf(all);
    const before = chartSymbolValues(calculateAll(prices, defaultDuties()), prices);
    expect(Object.keys(before)).toHaveLength(CHART_SYMBOLS.length);
    for (const [source, keys] of Object.entries(QUOTE_KEYS) as [QuoteSource, readonly string[]][]) {
      for (const key of keys) {
        const moved = pricesOf(all);
        applyQuote(moved, { source, key, bid: 1, ask: 2, price: 3, ts: 2 });
        const after = chartSymbolValues(calculateAll(moved, defaultDuties()), moved);
        const changed = CHART_SYMBOLS.filter((s: ChartSymbol) => after[s] !== before[s]);
        expect(changed, `${source}:${key}`).toEqual(chartSymbolsAffectedBy({ source, key }));
      }
    }
  });
});
