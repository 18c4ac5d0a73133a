import {
  aggregateCandles,
  bucketStart,
  type Candle,
  candlesFromLegs,
  isChartSymbol,
  TIMEFRAMES,
} from "@spreadwatch/core";
import type { Store, StoredCandle } from "@spreadwatch/db";
import type { RegisteredSpread } from "../spreads/registry.ts";
import { turn } from "./candle-sink.ts";

const MINUTE_MS = 60_000;

/** The chart symbols of a built-in: GC_BUY and GC_SELL of a parity, XAU_SPOT of a mid-only one. */
function chartSymbolsOf(spread: RegisteredSpread): string[] {
  if (isChartSymbol(spread.symbol)) return [spread.symbol];
  return [`${spread.symbol}_BUY`, `${spread.symbol}_SELL`].filter(isChartSymbol);
}

/**
 * The built-in spreads' chart candles over [from, to) from their legs' stored minutes, where
 * none is stored (docs/formulas.md, "History from the legs"): the charts and statistics of the
 * chart symbols read spread_candles, so a fetched past of the legs shows there too. The legs'
 * past is mid prices, so BUY and SELL get the formula's mid; what was recorded live is kept.
 * Every timeframe's buckets that no stored candle has are written. Returns the minutes written.
 */
export async function fillSpreadPast(
  store: Pick<Store, "candles" | "instrumentCandles">,
  spreads: readonly RegisteredSpread[],
  keys: ReadonlySet<string>,
  from: number,
  to: number,
): Promise<number> {
  let written = 0;
  for (const spread of spreads) {
    const checked = spread.checked;
    if (!spread.builtin || !checked?.legs.some((leg) => keys.has(leg.instrument))) continue;
    // An IST day at a time (whole buckets of every timeframe), a turn of the event loop between.
    for (let day = bucketStart(from, "1d") ?? from; day < to; day += DAY_MS) {
      const start = Math.max(from, day);
      const end = Math.min(to, day + DAY_MS);
      const legs = await Promise.all(
        checked.legs.map(async (leg) => {
          // The leg's last minute before the day carries into its first minutes.
          const before = await store.instrumentCandles.recent({
            symbol: leg.instrument,
            timeframe: "1m",
            to: start,
            limit: 1,
          });
          const rows = await store.instrumentCandles.recent({
            symbol: leg.instrument,
            timeframe: "1m",
            from: start,
            to: end,
            limit: Number.MAX_SAFE_INTEGER,
          });
          return [...before, ...rows];
        }),
      );
      const minutes = candlesFromLegs(checked.compiled, legs).filter(
        (c) => c.timestamp >= start && c.timestamp < end,
      );
      if (minutes.length > 0)
        for (const symbol of chartSymbolsOf(spread))
          written += await writeAbsent(store, symbol, minutes, start, end);
      await turn();
    }
  }
  return written;
}

const DAY_MS = 86_400_000;

async function writeAbsent(
  store: Pick<Store, "candles">,
  symbol: string,
  minutes: readonly Candle[],
  from: number,
  to: number,
): Promise<number> {
  const rows: StoredCandle[] = [];
  let written = 0;
  for (const timeframe of TIMEFRAMES) {
    const start = bucketStart(from, timeframe) ?? from;
    const stored = await store.candles.recent({
      symbol,
      timeframe,
      from: start,
      to: to + MINUTE_MS,
      limit: Number.MAX_SAFE_INTEGER,
    });
    const taken = new Set(stored.map((c) => c.timestamp));
    // A bucket that has a stored candle keeps it: recorded live, or the recorder's forming one.
    const candles = timeframe === "1m" ? minutes : aggregateCandles([...minutes], timeframe);
    for (const candle of candles) {
      if (taken.has(candle.timestamp)) continue;
      rows.push({ symbol, timeframe, ...candle });
      if (timeframe === "1m") written++;
    }
  }
  if (rows.length > 0) await store.candles.save(rows);
  return written;
}
