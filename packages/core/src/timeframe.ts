/** Chart timeframes, shortest first (docs/spec.md §2, "Known values"). */
export const TIMEFRAMES = ["1m", "5m", "15m", "1h", "4h", "1d"] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

export const DEFAULT_TIMEFRAME: Timeframe = "1h";

const MINUTE_MS = 60_000;

const TIMEFRAME_MS: Readonly<Record<Timeframe, number>> = {
  "1m": MINUTE_MS,
  "5m": 5 * MINUTE_MS,
  "15m": 15 * MINUTE_MS,
  "1h": 60 * MINUTE_MS,
  "4h": 240 * MINUTE_MS,
  "1d": 1440 * MINUTE_MS,
};

/** Length of one candle of this timeframe, in milliseconds. */
export function timeframeMs(timeframe: Timeframe): number {
  return TIMEFRAME_MS[timeframe];
}

/** Narrows a query-string or select value to a Timeframe. */
export function isTimeframe(value: unknown): value is Timeframe {
  return typeof value === "string" && (TIMEFRAMES as readonly string[]).includes(value);
}
