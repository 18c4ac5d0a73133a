import {
  type Calculations,
  calculateSymbol,
  indexSpreadRow,
  spotSpreadRows,
} from "./calculations.ts";
import { type Duties, INSTRUMENTS } from "./instrument.ts";
import type { Prices } from "./prices.ts";
import type { Quote } from "./quote.ts";
import { isSpreadSymbol, SPREAD_SYMBOLS, type SpreadSymbol, spreadSymbolLabel } from "./symbol.ts";

/** The spot spreads (CME future mid − spot, in USD) and the index spread (GIFT NIFTY − NIFTY 50). */
export const EXTRA_CHART_SYMBOLS = ["XAU_SPOT", "XAG_SPOT", "NIFTY"] as const;
export type ExtraChartSymbol = (typeof EXTRA_CHART_SYMBOLS)[number];

/** A commodity code of the chart: a spread symbol (`GC_BUY` …), a spot spread, or `NIFTY`. */
export type ChartSymbol = SpreadSymbol | ExtraChartSymbol;

/**
 * In the order of the chart's commodity select: the ten spreads by instrument (Gold, Silver,
 * Copper, Natural Gas, Crude Oil — the catalogue's order, metals first), Buy before Sell, then
 * Gold Spot, Silver Spot and NIFTY Index. GC_BUY, the default, comes first.
 */
export const CHART_SYMBOLS: readonly ChartSymbol[] = [...SPREAD_SYMBOLS, ...EXTRA_CHART_SYMBOLS];

export const DEFAULT_CHART_SYMBOL: ChartSymbol = "GC_BUY";

/** Narrows a path segment, select value or navigation state to a ChartSymbol (exact case). */
export function isChartSymbol(value: unknown): value is ChartSymbol {
  return typeof value === "string" && (CHART_SYMBOLS as readonly string[]).includes(value);
}

const EXTRA_LABELS: Readonly<Record<ExtraChartSymbol, string>> = {
  XAU_SPOT: "Gold Spot",
  XAG_SPOT: "Silver Spot",
  NIFTY: "NIFTY Index",
};

/** "Gold Buy", "Silver Sell", "Gold Spot", "NIFTY Index". */
export function chartSymbolLabel(symbol: ChartSymbol): string {
  return isSpreadSymbol(symbol) ? spreadSymbolLabel(symbol) : EXTRA_LABELS[symbol];
}

/** Current value of every chart symbol; a symbol that cannot be computed is absent. */
export type ChartSymbolValues = { [S in ChartSymbol]?: number };

const SPOT_SYMBOL_OF = { GC: "XAU_SPOT", SI: "XAG_SPOT" } as const;

/**
 * The value each chart symbol has now: the ten spreads from the calculations, the spot spreads
 * from spotSpreadRows, the index spread from indexSpreadRow — the numbers the dashboard shows.
 */
export function chartSymbolValues(calculations: Calculations, prices: Prices): ChartSymbolValues {
  const values: ChartSymbolValues = {};
  for (const symbol of SPREAD_SYMBOLS) {
    const spread = calculations[symbol]?.spread;
    if (spread !== undefined && Number.isFinite(spread)) values[symbol] = spread;
  }
  for (const row of spotSpreadRows(prices)) {
    if (row.spread !== undefined) values[SPOT_SYMBOL_OF[row.id]] = row.spread;
  }
  const index = indexSpreadRow(prices);
  if (index) values.NIFTY = index.spread;
  return values;
}

/**
 * One chart symbol's entry of chartSymbolValues, without computing the others: the statistics
 * value 20 days of minutes a symbol (docs/history.md), where every symbol a minute cost ~20×.
 */
export function chartSymbolValue(
  symbol: ChartSymbol,
  prices: Prices,
  duties: Duties,
): number | undefined {
  if (isSpreadSymbol(symbol)) {
    const spread = calculateSymbol(symbol, prices, duties)?.spread;
    return spread !== undefined && Number.isFinite(spread) ? spread : undefined;
  }
  if (symbol === "NIFTY") return indexSpreadRow(prices)?.spread;
  return spotSpreadRows(prices).find((row) => SPOT_SYMBOL_OF[row.id] === symbol)?.spread;
}

function inChartOrder(symbols: Iterable<ChartSymbol>): readonly ChartSymbol[] {
  const set = new Set(symbols);
  return CHART_SYMBOLS.filter((symbol) => set.has(symbol));
}

const AFFECTED = new Map<string, readonly ChartSymbol[]>([
  ...INSTRUMENTS.flatMap((inst): [string, readonly ChartSymbol[]][] => {
    const pair: SpreadSymbol[] = [`${inst.id}_BUY`, `${inst.id}_SELL`];
    const spot = inst.id === "GC" || inst.id === "SI" ? [SPOT_SYMBOL_OF[inst.id]] : [];
    return [
      [`cme:${inst.cmeKey}`, inChartOrder([...pair, ...spot])],
      [`mcx:${inst.mcxKey}`, pair],
    ];
  }),
  // USDINR feeds every parity; spot and index spreads are in their own currency.
  ["fx:USDINR", SPREAD_SYMBOLS],
  ["spot:XAUUSD", ["XAU_SPOT"]],
  ["spot:XAGUSD", ["XAG_SPOT"]],
  ["index:NIFTY50", ["NIFTY"]],
  ["index:GIFTNIFTY", ["NIFTY"]],
]);

/**
 * The chart symbols whose value can change when this quote arrives, in CHART_SYMBOLS order:
 * a CME GC or SI quote moves its Buy/Sell spreads and its spot spread, an MCX quote its
 * instrument's Buy/Sell, USDINR all ten spreads, a spot quote its spot spread, either index
 * quote NIFTY. An unknown key moves nothing.
 */
export function chartSymbolsAffectedBy(
  quote: Pick<Quote, "source" | "key">,
): readonly ChartSymbol[] {
  return AFFECTED.get(`${quote.source}:${quote.key}`) ?? [];
}
