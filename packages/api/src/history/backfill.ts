import {
  aggregateCandles,
  applyQuote,
  bookIn,
  type Candle,
  CandleBuilder,
  CHART_SYMBOLS,
  type ChartSymbol,
  calculateAll,
  chartSymbolValues,
  type Duties,
  emptyPrices,
  type Prices,
  type Quote,
  TIMEFRAMES,
} from "@spreadwatch/core";
import type { Store, StoredCandle } from "@spreadwatch/db";

export const BACKFILL_DAYS = 30;

/** An instrument's one-minute mid candles as a backfill builds them: the closed ones so far. */
export type LegMinutes = Map<string, { builder: CandleBuilder; minutes: Candle[] }>;

/**
 * Adds `key`'s mid now to its one-minute candles (what the recorder stores for every instrument
 * in use); a one-sided or crossed book has no mid and adds nothing.
 */
export function addLegMid(legs: LegMinutes, prices: Prices, key: string, ts: number): void {
  const book = bookIn(prices, key);
  if (book?.bid === undefined || book.ask === undefined || book.bid > book.ask) return;
  let leg = legs.get(key);
  if (!leg) {
    leg = { builder: new CandleBuilder("1m"), minutes: [] };
    legs.set(key, leg);
  }
  const closed = leg.builder.add(ts, (book.bid + book.ask) / 2);
  if (closed) leg.minutes.push(closed);
}

/** A series' minutes and its forming minute as candles of every timeframe, for the store. */
function allTimeframes(
  symbol: string,
  minutes: Candle[],
  builder: CandleBuilder,
  into: StoredCandle[],
): void {
  // The last minute stays open in the database too: the recorder resumes it.
  const series = builder.forming ? minutes.concat([builder.forming]) : minutes;
  // Coarser timeframes from the minutes, by core — cheaper than six builders per sample.
  for (const timeframe of TIMEFRAMES) {
    const rows = timeframe === "1m" ? series : aggregateCandles(series, timeframe);
    for (const candle of rows) into.push({ symbol, timeframe, ...candle });
  }
}

/**
 * Builds candles of every timeframe from past quotes with core alone — never through the hub,
 * so old quotes cannot fire alerts or reach subscribers — and writes them in one transaction:
 * the chart symbols' spreads and every quoted instrument's mid (the legs' history of the users'
 * own spreads, docs/formulas.md).
 */
export async function backfillCandles(
  store: Store,
  batches: Iterable<Quote[]>,
  duties: Duties,
): Promise<number> {
  const prices = emptyPrices();
  const builders = new Map<ChartSymbol, CandleBuilder>(
    CHART_SYMBOLS.map((s) => [s, new CandleBuilder("1m")]),
  );
  const minutes = new Map<ChartSymbol, Candle[]>(CHART_SYMBOLS.map((s) => [s, []]));
  const legs: LegMinutes = new Map();
  for (const quotes of batches) {
    for (const quote of quotes) {
      if (applyQuote(prices, quote)) addLegMid(legs, prices, quote.key, quote.ts);
    }
    const ts = quotes[0]?.ts;
    if (ts === undefined) continue;
    const values = chartSymbolValues(calculateAll(prices, duties), prices);
    for (const [symbol, builder] of builders) {
      const value = values[symbol];
      const closed = value === undefined ? undefined : builder.add(ts, value);
      if (closed) minutes.get(symbol)?.push(closed);
    }
  }
  const candles: StoredCandle[] = [];
  for (const [symbol, builder] of builders)
    allTimeframes(symbol, minutes.get(symbol) ?? [], builder, candles);
  const legCandles: StoredCandle[] = [];
  for (const [key, leg] of legs) allTimeframes(key, leg.minutes, leg.builder, legCandles);
  await store.candles.save(candles);
  await store.instrumentCandles.save(legCandles);
  return candles.filter((c) => c.timeframe === "1m").length;
}

/** On a first start (no history at all) with a feed that can make history, fills 30 days. */
export async function backfillIfEmpty(
  store: Store,
  history: ((from: number, to: number) => Iterable<Quote[]>) | undefined,
  duties: Duties,
  log: (text: string) => void,
  now = Date.now(),
): Promise<void> {
  if (!history || (await store.candles.has("1m"))) return;
  const started = performance.now();
  const count = await backfillCandles(
    store,
    history(now - BACKFILL_DAYS * 24 * 60 * 60 * 1000, now),
    duties,
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(
    `Backfilled ${BACKFILL_DAYS} days of simulated history (${count.toLocaleString("en-US")} one-minute candles) in ${seconds} s.`,
  );
}
