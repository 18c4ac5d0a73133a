import { describe, expect, it } from "vitest";
import {
  calculateAll,
  calculateSymbol,
  indexSpreadRow,
  spotSpreadRows,
  symbolsAffectedBy,
} from "./calculations.ts";
import { defaultDuties } from "./instrument.ts";
import { applyQuote, emptyPrices, type Prices } from "./prices.ts";
import type { Quote } from "./quote.ts";
import { SPREAD_SYMBOLS } from "./symbol.ts";

// The books of spread.test.ts's hand-worked examples, at USDINR 84.00.
const BOOKS: Quote[] = [
  { source: "cme", key: "GC", bid: 2650, ask: 2650.4, ts: 1000 },
  { source: "cme", key: "SI", bid: 31.2, ask: 31.23, ts: 1000 },
  { source: "cme", key: "HG", bid: 4.15, ask: 4.152, ts: 1000 },
  { source: "cme", key: "NG", bid: 3.25, ask: 3.255, ts: 1000 },
  { source: "cme", key: "CL", bid: 70.1, ask: 70.12, ts: 1000 },
  { source: "mcx", key: "GOLD", bid: 76400, ask: 76420, ts: 1000 },
  { source: "mcx", key: "SILVER", bid: 89500, ask: 89530, ts: 1000 },
  { source: "mcx", key: "COPPER", bid: 790, ask: 790.5, ts: 1000 },
  { source: "mcx", key: "NATURALGAS", bid: 275, ask: 275.4, ts: 1000 },
  { source: "mcx", key: "CRUDEOIL", bid: 5900, ask: 5902, ts: 2000 },
  { source: "fx", key: "USDINR", price: 84, ts: 1500 },
];

function pricesOf(quotes: Quote[]): Prices {
  const prices = emptyPrices();
  for (const quote of quotes) applyQuote(prices, quote);
  return prices;
}

describe("calculateSymbol", () => {
  const prices = pricesOf(BOOKS);

  it("computes BUY from cme bid and mcx ask", () => {
    // 76420 − 2650.00 × 10/31.1034768 × 84 × 1.06 = 76420 − 75861.615573471837721
    expect(calculateSymbol("GC_BUY", prices, defaultDuties())).toEqual({
      symbol: "GC_BUY",
      spread: expect.closeTo(558.38442653, 4),
      cme: 2650,
      mcx: 76420,
      parity: expect.closeTo(75861.61557347, 4),
      usdinr: 84,
    });
  });

  it("computes SELL from cme ask and mcx bid", () => {
    // 275.00 − 3.255 × 84 = 1.58
    expect(calculateSymbol("NG_SELL", prices, defaultDuties())).toEqual({
      symbol: "NG_SELL",
      spread: expect.closeTo(1.58, 6),
      cme: 3.255,
      mcx: 275,
      parity: expect.closeTo(273.42, 6),
      usdinr: 84,
    });
  });

  it("uses the configured duty", () => {
    // 76420 − 2650 × 10/31.1034768 × 84 × 1.15 = 76420 − 82302.696141030767338
    const duties = { ...defaultDuties(), GC: 0.15 };
    expect(calculateSymbol("GC_BUY", prices, duties)?.spread).toBeCloseTo(-5882.69614103, 4);
  });

  it("is undefined when the CME book, the MCX book or USDINR is missing", () => {
    const duties = defaultDuties();
    const without = (source: string, key: string) =>
      pricesOf(BOOKS.filter((q) => !(q.source === source && q.key === key)));
    expect(calculateSymbol("GC_BUY", without("cme", "GC"), duties)).toBeUndefined();
    expect(calculateSymbol("GC_SELL", without("mcx", "GOLD"), duties)).toBeUndefined();
    expect(calculateSymbol("CL_BUY", without("fx", "USDINR"), duties)).toBeUndefined();
  });

  it("is undefined when the side it needs is missing", () => {
    const oneSided = pricesOf([
      { source: "cme", key: "CL", bid: 70.1, ts: 1 },
      { source: "mcx", key: "CRUDEOIL", bid: 5900, ask: 5902, ts: 1 },
      { source: "fx", key: "USDINR", price: 84, ts: 1 },
    ]);
    expect(calculateSymbol("CL_BUY", oneSided, defaultDuties())?.spread).toBeCloseTo(13.6, 6);
    expect(calculateSymbol("CL_SELL", oneSided, defaultDuties())).toBeUndefined();
  });
});

describe("a crossed book", () => {
  it("gives no BUY or SELL for its instrument, while its price entry keeps both sides", () => {
    const prices = pricesOf([
      ...BOOKS,
      // CRUDEOIL's ask side emptied and came back below the bid: crossed.
      { source: "mcx", key: "CRUDEOIL", bid: 5905, ask: 5901, ts: 3000 },
      // GC's CME book crossed too.
      { source: "cme", key: "GC", bid: 2650.5, ask: 2650.4, ts: 3000 },
    ]);
    const duties = defaultDuties();
    expect(calculateSymbol("CL_BUY", prices, duties)).toBeUndefined();
    expect(calculateSymbol("CL_SELL", prices, duties)).toBeUndefined();
    expect(calculateSymbol("GC_BUY", prices, duties)).toBeUndefined();
    expect(calculateSymbol("GC_SELL", prices, duties)).toBeUndefined();
    expect(prices.mcx.CRUDEOIL).toEqual({ bid: 5905, ask: 5901, timestamp: 3000 });
    // The others are untouched: NG SELL is still 275.00 − 3.255 × 84 = 1.58.
    expect(calculateSymbol("NG_SELL", prices, duties)?.spread).toBeCloseTo(1.58, 6);
    const all = calculateAll(prices, duties);
    expect(Object.keys(all)).not.toContain("CL_BUY");
    expect(Object.keys(all)).not.toContain("GC_SELL");
  });

  it("comes back once the book uncrosses", () => {
    const prices = pricesOf([
      ...BOOKS,
      { source: "mcx", key: "CRUDEOIL", bid: 5905, ask: 5901, ts: 3000 },
    ]);
    applyQuote(prices, { source: "mcx", key: "CRUDEOIL", ask: 5906, ts: 4000 });
    // 5906 − 70.10 × 84 = 5906 − 5888.4 = 17.6
    expect(calculateSymbol("CL_BUY", prices, defaultDuties())?.spread).toBeCloseTo(17.6, 6);
  });

  it("gives the spot row no future mid and no spread", () => {
    const prices = pricesOf([
      { source: "cme", key: "GC", bid: 2650.5, ask: 2650.4, ts: 1 },
      { source: "spot", key: "XAUUSD", price: 2640.55, ts: 1 },
    ]);
    expect(spotSpreadRows(prices)).toEqual([
      { id: "GC", name: "Gold", spotKey: "XAUUSD", spot: 2640.55 },
    ]);
  });
});

describe("calculateAll", () => {
  it("has all ten symbols and the prices' timestamp when everything is present", () => {
    const calculations = calculateAll(pricesOf(BOOKS), defaultDuties());
    expect(Object.keys(calculations).sort()).toEqual([...SPREAD_SYMBOLS, "timestamp"].sort());
    expect(calculations.timestamp).toBe(2000);
    expect(calculations.SI_BUY?.spread).toBeCloseTo(213.68279652, 4);
    expect(calculations.SI_SELL?.spread).toBeCloseTo(97.80172228, 4);
    expect(calculations.HG_BUY?.spread).toBeCloseTo(21.96855402, 6);
    expect(calculations.HG_SELL?.spread).toBeCloseTo(21.09817742, 6);
    expect(calculations.NG_BUY?.spread).toBeCloseTo(2.4, 6);
    expect(calculations.CL_BUY?.spread).toBeCloseTo(13.6, 6);
    expect(calculations.CL_SELL?.spread).toBeCloseTo(9.92, 6);
    expect(calculations.GC_SELL?.spread).toBeCloseTo(526.93361663, 4);
  });

  it("leaves out entries it cannot compute rather than filling them", () => {
    const calculations = calculateAll(
      pricesOf(BOOKS.filter((q) => q.key !== "SILVER")),
      defaultDuties(),
    );
    expect("SI_BUY" in calculations).toBe(false);
    expect("SI_SELL" in calculations).toBe(false);
    expect(calculations.GC_BUY).toBeDefined();
  });

  it("is just a null timestamp for empty prices", () => {
    expect(calculateAll(emptyPrices(), defaultDuties())).toEqual({ timestamp: null });
  });
});

describe("symbolsAffectedBy", () => {
  it("maps USDINR to all ten symbols", () => {
    expect([...symbolsAffectedBy({ source: "fx", key: "USDINR" })]).toEqual([...SPREAD_SYMBOLS]);
  });

  it("maps a CME or MCX book to its instrument's two symbols", () => {
    expect(symbolsAffectedBy({ source: "cme", key: "GC" })).toEqual(["GC_BUY", "GC_SELL"]);
    expect(symbolsAffectedBy({ source: "mcx", key: "GOLD" })).toEqual(["GC_BUY", "GC_SELL"]);
    expect(symbolsAffectedBy({ source: "mcx", key: "NATURALGAS" })).toEqual(["NG_BUY", "NG_SELL"]);
    expect(symbolsAffectedBy({ source: "cme", key: "CL" })).toEqual(["CL_BUY", "CL_SELL"]);
  });

  it("maps spot, index and unknown keys to nothing", () => {
    expect(symbolsAffectedBy({ source: "spot", key: "XAUUSD" })).toEqual([]);
    expect(symbolsAffectedBy({ source: "index", key: "GIFTNIFTY" })).toEqual([]);
    expect(symbolsAffectedBy({ source: "cme", key: "GOLD" })).toEqual([]);
    expect(symbolsAffectedBy({ source: "fx", key: "EURINR" })).toEqual([]);
  });

  it("agrees with calculateAll: only the named symbols change", () => {
    const before = pricesOf(BOOKS);
    const after = pricesOf(BOOKS);
    const quote: Quote = { source: "cme", key: "SI", bid: 31.5, ask: 31.52, ts: 3000 };
    applyQuote(after, quote);
    const a = calculateAll(before, defaultDuties());
    const b = calculateAll(after, defaultDuties());
    const changed = SPREAD_SYMBOLS.filter((s) => a[s]?.spread !== b[s]?.spread);
    expect(changed).toEqual([...symbolsAffectedBy(quote)]);
  });
});

describe("spotSpreadRows", () => {
  it("is empty without spot prices", () => {
    expect(spotSpreadRows(pricesOf(BOOKS))).toEqual([]);
  });

  it("has Gold then Silver, each CME mid minus spot", () => {
    const prices = pricesOf([
      ...BOOKS,
      { source: "spot", key: "XAGUSD", price: 31.3, ts: 1 },
      { source: "spot", key: "XAUUSD", price: 2640.55, ts: 1 },
    ]);
    // Gold: 2650.20 − 2640.55 = 9.65 ; Silver: 31.215 − 31.30 = −0.085
    expect(spotSpreadRows(prices)).toEqual([
      {
        id: "GC",
        name: "Gold",
        spotKey: "XAUUSD",
        spread: expect.closeTo(9.65, 8),
        future: expect.closeTo(2650.2, 8),
        spot: 2640.55,
      },
      {
        id: "SI",
        name: "Silver",
        spotKey: "XAGUSD",
        spread: expect.closeTo(-0.085, 8),
        future: expect.closeTo(31.215, 8),
        spot: 31.3,
      },
    ]);
  });

  it("shows a row with a spot price but no future, without spread", () => {
    const rows = spotSpreadRows(
      pricesOf([{ source: "spot", key: "XAUUSD", price: 2640.55, ts: 1 }]),
    );
    expect(rows).toEqual([{ id: "GC", name: "Gold", spotKey: "XAUUSD", spot: 2640.55 }]);
  });
});

describe("indexSpreadRow", () => {
  it("is GIFT NIFTY minus NIFTY 50 when both exist", () => {
    const prices = pricesOf([
      { source: "index", key: "GIFTNIFTY", price: 24150.5, ts: 1 },
      { source: "index", key: "NIFTY50", price: 24050.25, ts: 1 },
    ]);
    // 24150.50 − 24050.25 = 100.25
    expect(indexSpreadRow(prices)).toEqual({
      spread: expect.closeTo(100.25, 8),
      future: 24150.5,
      spot: 24050.25,
    });
  });

  it("is undefined unless both exist", () => {
    expect(
      indexSpreadRow(pricesOf([{ source: "index", key: "GIFTNIFTY", price: 24150.5, ts: 1 }])),
    ).toBeUndefined();
    expect(
      indexSpreadRow(pricesOf([{ source: "index", key: "NIFTY50", price: 24050.25, ts: 1 }])),
    ).toBeUndefined();
  });
});
