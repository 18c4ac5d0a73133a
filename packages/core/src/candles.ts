import type { SpreadSample } from "./backtest.ts";
import { type Timeframe, timeframeMs } from "./timeframe.ts";

/** One OHLC candle; `timestamp` is the start of its bucket, epoch milliseconds. */
export interface Candle {
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** India has one offset all year (UTC+5:30, no DST), so IST boundaries are plain arithmetic. */
export const IST_OFFSET_MS = 330 * 60_000;

/**
 * Start of the `sizeMs`-long bucket holding `ts`, buckets aligned to IST midnight: hours start
 * at :30 UTC, days at 18:30 UTC, 4 h buckets at IST 00:00, 04:00, … Undefined for a non-finite
 * time or a size that is not a positive finite number.
 */
export function istBucketStart(ts: number, sizeMs: number): number | undefined {
  if (!Number.isFinite(ts) || !(sizeMs > 0) || !Number.isFinite(sizeMs)) return undefined;
  return Math.floor((ts + IST_OFFSET_MS) / sizeMs) * sizeMs - IST_OFFSET_MS;
}

/** Start of the candle of `timeframe` that holds `ts` (IST-aligned), or undefined for a bad time. */
export function bucketStart(ts: number, timeframe: Timeframe): number | undefined {
  return istBucketStart(ts, timeframeMs(timeframe));
}

/** A candle of one sample, or undefined when the time or the value is not a finite number. */
export function startCandle(
  ts: number,
  value: number,
  timeframe: Timeframe = "1m",
): Candle | undefined {
  const timestamp = bucketStart(ts, timeframe);
  if (timestamp === undefined || !Number.isFinite(value)) return undefined;
  return { timestamp, open: value, high: value, low: value, close: value };
}

/** The candle with one more (later) sample: same open, widened high/low, new close. */
export function addSample(candle: Candle, value: number): Candle {
  if (!Number.isFinite(value)) return candle;
  return {
    timestamp: candle.timestamp,
    open: candle.open,
    high: Math.max(candle.high, value),
    low: Math.min(candle.low, value),
    close: value,
  };
}

/**
 * Builds the candles of one symbol from its samples as they arrive. Samples are taken in
 * arrival order, so within a bucket the first sample is the open and the last the close.
 *
 * A sample whose bucket is earlier than the forming candle's (out of order), or earlier than
 * a candle already closed, is ignored and counted in `ignored`: a closed candle has been
 * handed out (and written) and must never change, and folding an old price into the forming
 * candle would make it that candle's close, a price from a minute that is over.
 */
export class CandleBuilder {
  readonly timeframe: Timeframe;
  #forming: Candle | undefined;
  /** Samples before this time belong to candles that are closed. */
  #closedUntil = Number.NEGATIVE_INFINITY;
  #ignored = 0;

  /**
   * `resume` is a forming candle stored at shutdown: samples that fall in its bucket after a
   * restart extend it instead of starting the minute afresh and overwriting it.
   */
  constructor(timeframe: Timeframe = "1m", resume?: Candle) {
    this.timeframe = timeframe;
    if (resume && isCandle(resume) && bucketStart(resume.timestamp, timeframe) === resume.timestamp)
      this.#forming = { ...resume };
  }

  /**
   * The candle of the current bucket, or undefined before the first sample / after flush. Each
   * sample replaces it with a new object, so a candle handed out is a snapshot that never changes.
   */
  get forming(): Readonly<Candle> | undefined {
    return this.#forming;
  }

  /** Samples ignored so far: out of order, or not finite. */
  get ignored(): number {
    return this.#ignored;
  }

  /**
   * Adds a sample; returns the candle it closed (the previous bucket's) when the sample falls
   * in a later bucket, else undefined. Empty buckets in between produce no candle.
   */
  add(ts: number, sample: number): Candle | undefined {
    // −0 (equal legs times a negative factor) is 0: kept, it would read "−0.00" and make a
    // coarser candle's high differ by the order its minutes came in (Math.max(−0, 0) is 0).
    const value = sample === 0 ? 0 : sample;
    const bucket = bucketStart(ts, this.timeframe);
    if (bucket === undefined || !Number.isFinite(value) || bucket < this.#closedUntil) {
      this.#ignored++;
      return undefined;
    }
    const forming = this.#forming;
    if (forming && bucket === forming.timestamp) {
      this.#forming = addSample(forming, value);
      return undefined;
    }
    if (forming && bucket < forming.timestamp) {
      this.#ignored++;
      return undefined;
    }
    const closed = forming && this.#close(forming);
    this.#forming = { timestamp: bucket, open: value, high: value, low: value, close: value };
    return closed;
  }

  /**
   * Closes the forming candle now (at shutdown) and returns it. Later samples of its bucket are
   * ignored like any other sample of a closed candle.
   */
  flush(): Candle | undefined {
    const forming = this.#forming;
    this.#forming = undefined;
    return forming && this.#close(forming);
  }

  #close(candle: Candle): Candle {
    this.#closedUntil = candle.timestamp + timeframeMs(this.timeframe);
    return candle;
  }
}

function isCandle(candle: Candle): boolean {
  return (
    Number.isFinite(candle.timestamp) &&
    Number.isFinite(candle.open) &&
    Number.isFinite(candle.high) &&
    Number.isFinite(candle.low) &&
    Number.isFinite(candle.close)
  );
}

/**
 * The candles a recorder builds from these samples, in the order given (so an out-of-order
 * sample is ignored exactly as CandleBuilder ignores it), the forming candle included.
 */
export function candlesFromSamples(
  samples: Iterable<SpreadSample>,
  timeframe: Timeframe = "1m",
): Candle[] {
  const builder = new CandleBuilder(timeframe);
  const candles: Candle[] = [];
  for (const { ts, value } of samples) {
    const closed = builder.add(ts, value);
    if (closed) candles.push(closed);
  }
  const last = builder.flush();
  if (last) candles.push(last);
  return candles;
}

/**
 * Coarser candles from finer ones (1-minute candles from storage to 5m … 1d): per IST-aligned
 * bucket the open of its first candle, the highest high, the lowest low, the close of its last.
 * A bucket without input candles is absent. Any input whose buckets nest in the target's works
 * (1h to 1d too). Input is expected oldest first; unsorted input is sorted (stably) first, and
 * a candle with a non-finite field is skipped.
 */
export function aggregateCandles(candles: readonly Candle[], timeframe: Timeframe): Candle[] {
  const input = isCleanAndSorted(candles)
    ? candles
    : candles.filter(isCandle).sort((a, b) => a.timestamp - b.timestamp);
  const size = timeframeMs(timeframe);
  const out: Candle[] = [];
  let current: Candle | undefined;
  // An indexed loop: this runs over up to a year of 1-minute rows per chart request.
  for (let i = 0; i < input.length; i++) {
    const c = input[i] as Candle;
    const bucket = Math.floor((c.timestamp + IST_OFFSET_MS) / size) * size - IST_OFFSET_MS;
    if (current !== undefined && current.timestamp === bucket) {
      if (c.high > current.high) current.high = c.high;
      if (c.low < current.low) current.low = c.low;
      current.close = c.close;
    } else {
      current = { timestamp: bucket, open: c.open, high: c.high, low: c.low, close: c.close };
      out.push(current);
    }
  }
  return out;
}

function isCleanAndSorted(candles: readonly Candle[]): boolean {
  let previous = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < candles.length; i++) {
    const c = candles[i] as Candle;
    if (!isCandle(c) || c.timestamp < previous) return false;
    previous = c.timestamp;
  }
  return true;
}
