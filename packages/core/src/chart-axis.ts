import { type Candle, istBucketStart } from "./candles.ts";
import { formatSigned } from "./decimals.ts";
import { type Timeframe, timeframeMs } from "./timeframe.ts";

/** docs/spec.md §4: the chart is rebuilt 100 ms after data, theme, bounds, timeframe or zoom mode change. */
export const CHART_BUILD_DELAY_MS = 100;
/** docs/spec.md §2: the chart is never shorter than 400 px. */
export const MIN_CHART_HEIGHT_PX = 400;
/** The chart endpoint returns at most this many candles (the most recent). */
export const MAX_CHART_CANDLES = 1500;
/** docs/spec.md §5: the y axis cannot be zoomed to a range narrower than 10. */
export const MIN_Y_ZOOM_RANGE = 10;
/** docs/spec.md §9: y bounds are padded by the larger of 10 % of the range and 5. */
export const Y_PADDING_FRACTION = 0.1;
export const Y_PADDING_MIN = 5;

/** The chart's series label and the zoom-mode badge texts (docs/spec.md §2). */
export const CHART_SERIES_LABEL = "Spread Value";
export const ZOOM_MODE_Y_TEXT = "Zoom Mode: Vertical (Y)";
export const ZOOM_MODE_XY_TEXT = "Zoom Mode: Both Axes (XY)";

export interface AxisRange {
  min: number;
  max: number;
}

/**
 * Y bounds for these candles: lowest and highest of every open, high, low and close, padded on
 * both sides by max(10 % of that range, 5) — so a flat series still gets a range of 10.
 * Undefined when no candle has a finite value.
 */
export function chartYBounds(candles: readonly Candle[]): AxisRange | undefined {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const c of candles) {
    for (const v of [c.open, c.high, c.low, c.close]) {
      if (!Number.isFinite(v)) continue;
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  if (min > max) return undefined;
  const pad = Math.max((max - min) * Y_PADDING_FRACTION, Y_PADDING_MIN);
  return { min: min - pad, max: max + pad };
}

/**
 * A y zoom range no narrower than MIN_Y_ZOOM_RANGE: a narrower one is widened to exactly 10
 * around its centre. Ends given the wrong way round are swapped; undefined for a non-finite end.
 */
export function clampYZoom(min: number, max: number): AxisRange | undefined {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return undefined;
  const lo = Math.min(min, max);
  const hi = Math.max(min, max);
  if (hi - lo >= MIN_Y_ZOOM_RANGE) return { min: lo, max: hi };
  const centre = (lo + hi) / 2;
  return { min: centre - MIN_Y_ZOOM_RANGE / 2, max: centre + MIN_Y_ZOOM_RANGE / 2 };
}

export interface XAxisRule {
  unit: "day" | "hour" | "minute";
  stepSize: number;
  maxTicks: number;
  tickFormat: "dd MMM" | "HH:mm";
  /** The axis runs exactly from the first to the last point. */
  spanFirstToLast: boolean;
}

const X_AXIS_RULES: Readonly<Record<Timeframe, XAxisRule>> = {
  "1m": { unit: "minute", stepSize: 1, maxTicks: 6, tickFormat: "HH:mm", spanFirstToLast: true },
  "5m": { unit: "minute", stepSize: 5, maxTicks: 8, tickFormat: "HH:mm", spanFirstToLast: true },
  "15m": {
    unit: "minute",
    stepSize: 15,
    maxTicks: 10,
    tickFormat: "HH:mm",
    spanFirstToLast: false,
  },
  "1h": { unit: "hour", stepSize: 1, maxTicks: 10, tickFormat: "HH:mm", spanFirstToLast: false },
  "4h": { unit: "hour", stepSize: 4, maxTicks: 10, tickFormat: "HH:mm", spanFirstToLast: false },
  "1d": { unit: "day", stepSize: 1, maxTicks: 10, tickFormat: "dd MMM", spanFirstToLast: false },
};

/** docs/spec.md §9's x axis: unit, step, tick count limit, tick format, and whether it spans the data. */
export function xAxisRule(timeframe: Timeframe): XAxisRule {
  return X_AXIS_RULES[timeframe];
}

const UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** Milliseconds between two ticks before thinning: unit × step (5 min for 5m, 4 h for 4h …). */
export function xTickStepMs(timeframe: Timeframe): number {
  const rule = X_AXIS_RULES[timeframe];
  return UNIT_MS[rule.unit] * rule.stepSize;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Tick spacings a reader finds natural; thinning picks the first one that is few enough. */
const NICE_SPACINGS = [
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  4 * HOUR,
  6 * HOUR,
  8 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  3 * DAY,
  7 * DAY,
  14 * DAY,
];

/**
 * Tick positions (epoch ms, ascending) in [min, max], on IST-aligned multiples of unit × step,
 * at most the timeframe's maxTicks. When the range holds too many, every k-th grid line is
 * kept, k chosen so the spacing is a round one (2, 5, 10, 15, 30 min, 1, 2, 3, 4, 6, 8, 12 h,
 * 1, 2, 3, 7, 14 days, then doubling) and counted from IST midnight, so the ticks stay put
 * while the chart pans. Empty for a non-finite or reversed range.
 */
export function xTicks(min: number, max: number, timeframe: Timeframe): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max) || min > max) return [];
  const { maxTicks } = X_AXIS_RULES[timeframe];
  const step = xTickStepMs(timeframe);
  let spacing = step;
  const candidates = NICE_SPACINGS.filter((s) => s >= step && s % step === 0);
  for (let i = 0; tickCount(min, max, spacing) > maxTicks; i++) {
    spacing = candidates[i] ?? spacing * 2;
  }
  const first = firstTick(min, spacing);
  const ticks: number[] = [];
  for (let t = first; t <= max; t += spacing) ticks.push(t);
  return ticks;
}

function firstTick(min: number, spacing: number): number {
  const start = istBucketStart(min, spacing) ?? min;
  return start < min ? start + spacing : start;
}

function tickCount(min: number, max: number, spacing: number): number {
  const first = firstTick(min, spacing);
  return first > max ? 0 : Math.floor((max - first) / spacing) + 1;
}

/**
 * The x range to show for these candles (oldest first). For 1m and 5m it runs from the first
 * point to the last (docs/spec.md §9). Otherwise it runs from the tick boundary at or before the first
 * candle to the one at or after the end of the last candle, so the last candle is drawn whole.
 * A single point at 1m/5m gets one candle's width either side. Undefined for no candles.
 */
export function chartXRange(
  candles: readonly Candle[],
  timeframe: Timeframe,
): AxisRange | undefined {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const { timestamp } of candles) {
    if (!Number.isFinite(timestamp)) continue;
    if (timestamp < first) first = timestamp;
    if (timestamp > last) last = timestamp;
  }
  if (first > last) return undefined;
  const size = timeframeMs(timeframe);
  if (X_AXIS_RULES[timeframe].spanFirstToLast) {
    return first === last ? { min: first - size, max: last + size } : { min: first, max: last };
  }
  const step = xTickStepMs(timeframe);
  const min = istBucketStart(first, step) ?? first;
  const end = last + size;
  const endStart = istBucketStart(end, step) ?? end;
  return { min, max: endStart < end ? endStart + step : endStart };
}

/** A y-axis label: sign and 2 decimals ("+12.50", "-3.00", "0.00"); "—" for a non-number. */
export function formatYTick(value: number): string {
  return formatSigned(value, 2);
}
