import {
  CHART_SERIES_LABEL,
  formatTickLabels,
  type Timeframe,
  timeframeMs,
  xTicks,
} from "@spreadwatch/core";
import uPlot from "uplot";
import type { ChartKind } from "../../hooks/chart/useChartSelection.ts";
import type { ChartColors } from "./colors.ts";
import { cursorValuePlugin, lastValuePlugin } from "./plugins/axisTags.ts";
import { type Bands, bandsPlugin } from "./plugins/bands.ts";
import { candlesPlugin } from "./plugins/candles.ts";
import { keyboardLevelPlugin } from "./plugins/keyboardLevel.ts";
import { legendPlugin } from "./plugins/legend.ts";
import { legHistoryPlugin } from "./plugins/legHistory.ts";
import { type LevelPick, levelPickPlugin } from "./plugins/levelPick.ts";
import { olderEdgePlugin } from "./plugins/olderEdge.ts";
import { panPlugin } from "./plugins/pan.ts";
import { type RollMark, rollGaps, rollsPlugin } from "./plugins/rolls.ts";
import { type ThresholdLine, thresholdsPlugin } from "./plugins/thresholds.ts";
import { tooltipPlugin } from "./plugins/tooltip.ts";
import { touchPlugin } from "./plugins/touch.ts";
import { type TradeMark, tradesPlugin } from "./plugins/trades.ts";
import { wheelZoomPlugin } from "./plugins/wheelZoom.ts";
import { zeroLinePlugin } from "./plugins/zeroLine.ts";
import { zoomBadgePlugin } from "./plugins/zoomBadge.ts";
import { formatValue } from "./valueScale.ts";
import type { ChartView } from "./view.ts";

export interface ChartOptionsInput {
  width: number;
  height: number;
  timeframe: Timeframe;
  kind: ChartKind;
  colors: ChartColors;
  /** The range each scale starts at. */
  home: ChartView;
  /** What changes without a rebuild, read by the plugins on every draw or event. */
  live: ChartLiveInputs;
}

export interface ChartLiveInputs {
  bands(): Bands | undefined;
  thresholds(): readonly ThresholdLine[];
  /** The rolls of the chart's legs: marks, and breaks in the line. */
  rolls(): readonly RollMark[];
  /** A definition's creation time: candles before it come from its legs' closes. */
  legHistoryUntil(): number | undefined;
  /** A backtest's fills, marked on the plot. */
  trades(): readonly TradeMark[];
  onReachOldest(): void;
  onPick(pick: LevelPick): void;
}

/** Time labels are about five characters wide; closer than this they would touch. */
const MIN_X_LABEL_GAP_PX = 56;

/**
 * uPlot options for the spread chart. Both scales are manual (`auto: false`): the component
 * sets them — docs/spec.md §9's ranges at first and after Reset Zoom, the plugins' while zooming — and
 * new data keeps whatever range is shown.
 */
export function chartOptions({
  width,
  height,
  timeframe,
  kind,
  colors,
  home,
  live,
}: ChartOptionsInput): uPlot.Options {
  const font = `11px ${colors.font}`;
  const axis = {
    stroke: colors.axis,
    font,
    grid: { stroke: colors.grid, width: 1 },
    ticks: { stroke: colors.grid, width: 1, size: 4 },
  };
  const plugins = [
    legHistoryPlugin(live.legHistoryUntil),
    bandsPlugin(live.bands, { fill: colors.band, line: colors.axis }),
    zeroLinePlugin(colors.zero),
    thresholdsPlugin(live.thresholds),
    rollsPlugin(live.rolls),
    tradesPlugin(live.trades),
    legendPlugin(),
    tooltipPlugin(),
    lastValuePlugin(),
    cursorValuePlugin(),
    wheelZoomPlugin({ minXRange: 2 * timeframeMs(timeframe) }),
    panPlugin(),
    touchPlugin({ minXRange: 2 * timeframeMs(timeframe) }),
    olderEdgePlugin(live.onReachOldest),
    levelPickPlugin(live.onPick),
    keyboardLevelPlugin(live.onPick),
    zoomBadgePlugin(),
  ];
  if (kind === "candles") {
    plugins.push(
      candlesPlugin({ candleMs: timeframeMs(timeframe), up: colors.up, down: colors.down }),
    );
  }
  return {
    width,
    height,
    legend: { show: false },
    cursor: {
      drag: { x: false, y: false, setScale: false },
      points: { size: 7, fill: colors.line, stroke: colors.line },
    },
    scales: {
      x: { time: false, auto: false, range: (_u, min, max) => orHome(min, max, home.x) },
      y: { auto: false, range: (_u, min, max) => orHome(min, max, home.y) },
    },
    series: [
      { label: "Time" },
      {
        label: CHART_SERIES_LABEL,
        stroke: colors.line,
        width: 2,
        // Two contracts' candles are never joined by a stroke (docs/user-guide.md "Instruments").
        gaps: (u, _series, _i0, _i1, nullGaps) => rollGaps(u, live.rolls(), nullGaps),
        // uPlot's default: dots only where they are far enough apart, so one candle still shows.
        points: { size: 6, fill: colors.line, stroke: colors.line },
      },
      { label: "Open", show: false },
      { label: "High", show: false },
      { label: "Low", show: false },
    ],
    axes: [
      {
        ...axis,
        // Two lines where a tick carries its day under the time (formatTickLabels).
        size: (_u, values) => (values?.some((v) => v.includes("\n")) ? 48 : 34),
        splits: (u, _axis, min, max) => thin(xTicks(min, max, timeframe), u),
        values: (_u, splits) => formatTickLabels(splits, timeframe),
      },
      {
        ...axis,
        side: 1,
        // A null is a tick whose label the live value's tag covers (plugins/axisTags.ts).
        values: (_u, splits) => splits.map((value) => (value == null ? null : formatValue(value))),
        size: (_u, values) => yAxisWidth(values),
      },
    ],
    plugins,
  };
}

function orHome(
  min: number | null,
  max: number | null,
  home: { min: number; max: number },
): uPlot.Range.MinMax {
  return min == null || max == null ? [home.min, home.max] : [min, max];
}

/** docs/spec.md §9 caps the tick count; on a narrow chart fewer still fit, so keep every k-th. */
function thin(ticks: number[], u: uPlot): number[] {
  const plotWidth = u.bbox.width > 0 ? u.bbox.width / uPlot.pxRatio : u.width;
  const room = Math.max(2, Math.floor(plotWidth / MIN_X_LABEL_GAP_PX));
  if (ticks.length <= room) return ticks;
  const stride = Math.ceil(ticks.length / room);
  return ticks.filter((_, i) => i % stride === 0);
}

const CHAR_PX = 7;

/** Wide enough for the longest label ("+12345.67") with the tick and some air. */
function yAxisWidth(values: string[] | null): number {
  const longest = values?.reduce((n, v) => Math.max(n, v.length), 0) ?? 6;
  return Math.max(48, Math.ceil(longest * CHAR_PX) + 18);
}
