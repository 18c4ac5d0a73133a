import {
  type AxisRange,
  type Candle,
  chartXRange,
  chartYBounds,
  type Timeframe,
  timeframeMs,
} from "@spreadwatch/core";
import type uPlot from "uplot";
import { valueScale } from "./valueScale.ts";

/** Both scales' ranges: what Reset Zoom returns to, and what a live update keeps current. */
export interface ChartView {
  x: AxisRange;
  y: AxisRange;
}

/**
 * uPlot's columns: time, then "Spread Value" (the close, the series drawn as a line), then
 * open, high and low as hidden series, so the candles and the tooltip read one data set.
 */
export function toPlotData(candles: readonly Candle[]): uPlot.AlignedData {
  const n = candles.length;
  const time = new Array<number>(n);
  const close = new Array<number>(n);
  const open = new Array<number>(n);
  const high = new Array<number>(n);
  const low = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const c = candles[i] as Candle;
    time[i] = c.timestamp;
    close[i] = c.close;
    open[i] = c.open;
    high[i] = c.high;
    low[i] = c.low;
  }
  return [time, close, open, high, low];
}

export const OPEN = 2;
export const HIGH = 3;
export const LOW = 4;
export const CLOSE = 1;

/**
 * How many of the latest candles the chart opens on (docs/user-guide.md, "Advanced Spread Chart"):
 * enough to read the recent trend, few enough that each candle is wider than a hairline. The rest
 * are a pan away.
 */
export const HOME_CANDLES = 200;

/**
 * The home view: docs/spec.md §9's x range and y bounds, over the last HOME_CANDLES candles only.
 * Candles are drawn centred on their time, so in candle mode the x range also leaves half a
 * candle beside the first and the last.
 */
export function homeView(
  all: readonly Candle[],
  timeframe: Timeframe,
  candleMode: boolean,
): ChartView | undefined {
  const candles = all.length > HOME_CANDLES ? all.slice(-HOME_CANDLES) : all;
  const x = chartXRange(candles, timeframe);
  const y = yBounds(candles);
  if (!x || !y) return undefined;
  if (!candleMode || candles.length === 0) return { x, y };
  const half = timeframeMs(timeframe) / 2;
  const first = (candles[0] as Candle).timestamp;
  const last = (candles.at(-1) as Candle).timestamp;
  return { x: { min: Math.min(x.min, first - half), max: Math.max(x.max, last + half) }, y };
}

/** chartYBounds in the value scale's units (valueScale.ts): its padding of 5 is 5 units. */
function yBounds(candles: readonly Candle[]): AxisRange | undefined {
  const { unit } = valueScale();
  if (unit === 1) return chartYBounds(candles);
  const scaled = candles.map((c) => ({
    ...c,
    open: c.open / unit,
    high: c.high / unit,
    low: c.low / unit,
    close: c.close / unit,
  }));
  const y = chartYBounds(scaled);
  return y && { min: y.min * unit, max: y.max * unit };
}

/** Whether the chart shows exactly this view, i.e. the user has not zoomed or panned away. */
export function showsView(u: uPlot, view: ChartView): boolean {
  const same = (key: "x" | "y", r: AxisRange) => {
    const s = u.scales[key];
    const tol = (r.max - r.min) * 1e-9;
    return (
      Math.abs((s?.min ?? Number.NaN) - r.min) <= tol &&
      Math.abs((s?.max ?? Number.NaN) - r.max) <= tol
    );
  };
  return same("x", view.x) && same("y", view.y);
}

export function sameView(a: ChartView, b: ChartView): boolean {
  return a.x.min === b.x.min && a.x.max === b.x.max && a.y.min === b.y.min && a.y.max === b.y.max;
}
