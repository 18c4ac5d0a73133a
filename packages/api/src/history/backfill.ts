import {
  aggregateCandles,
  applyQuote,
  type Candle,
  CandleBuilder,
  CHART_SYMBOLS,
  type ChartSymbol,
  calculateAll,
  chartSymbolValues,
  type Duties,
  emptyPrices,
  type Quote,
  TIMEFRAMES,
} from "@spreadwatch/core";
import type { Store, StoredCandle } from "@spreadwatch/db";

export const BACKFILL_DAYS = 30;

/**
 * Builds candles of every timeframe from past quotes with core alone — never through the hub,
 * so old quotes cannot fire alerts or reach subscribers — and writes them in one transaction.
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
  for (const quotes of batches) {
    for (const quote of quotes) applyQuote(prices, quote);
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
  for (const [symbol, builder] of builders) {
    // The last minute stays open in the database too: the recorder resumes it.
    const series = [...(minutes.get(symbol) ?? []), ...(builder.forming ? [builder.forming] : [])];
    // Coarser timeframes from the minutes, by core — cheaper than six builders per sample.
    for (const timeframe of TIMEFRAMES) {
      const rows = timeframe === "1m" ? series : aggregateCandles(series, timeframe);
      for (const candle of rows) candles.push({ symbol, timeframe, ...candle });
    }
  }
  await store.candles.save(candles);
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
