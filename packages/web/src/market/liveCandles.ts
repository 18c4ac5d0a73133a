import {
  addSample,
  bucketStart,
  type Candle,
  startCandle,
  type Timeframe,
} from "@spreadwatch/core";

/** The candles with one more sample, or undefined when it belongs to a closed candle. */
export function foldSample(
  candles: readonly Candle[],
  ts: number,
  value: number,
  timeframe: Timeframe,
): Candle[] | undefined {
  const last = candles.at(-1);
  const bucket = bucketStart(ts, timeframe);
  if (!last || bucket === undefined || bucket < last.timestamp) return undefined;
  if (bucket === last.timestamp) return [...candles.slice(0, -1), addSample(last, value)];
  const started = startCandle(ts, value, timeframe);
  return started ? [...candles, started] : undefined;
}

/**
 * A fetched window with what the chart already showed after it. The server answers from what it
 * had recorded when the request ran; samples the stream brought while the answer was on its way
 * (a refetch at a minute's turn, a page of older candles) are in `shown`, not in `fetched`, and
 * the stream does not send them again. So the forming candle (the last shown), when the fetch
 * has it too, keeps the fetched open and takes the wider high and low and the shown close; shown
 * candles after the fetched last are added. A closed candle the fetch has is taken as fetched:
 * the server recorded every sample of it, where the stream may have folded one away
 * (docs/history.md, "The chart's forming candle").
 */
export function keepShown(fetched: readonly Candle[], shown: readonly Candle[]): readonly Candle[] {
  const last = fetched.at(-1);
  const forming = shown.at(-1);
  if (!last || !forming || forming.timestamp < last.timestamp) return fetched;
  const merged = [...fetched];
  for (const candle of shown) {
    if (candle.timestamp > last.timestamp) merged.push(candle);
  }
  if (forming.timestamp === last.timestamp) {
    merged[merged.length - 1] = {
      timestamp: last.timestamp,
      open: last.open,
      high: Math.max(last.high, forming.high),
      low: Math.min(last.low, forming.low),
      close: forming.close,
    };
  }
  return merged;
}
