import {
  type Candle,
  CHART_BUILD_DELAY_MS,
  CHART_BUILD_ERROR_TEXT,
  type Timeframe,
} from "@spreadwatch/core";
import { type Ref, useEffect, useImperativeHandle, useRef, useState } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { ChartKind } from "../../hooks/chart/useChartSelection.ts";
import { ChartOverlay } from "./ChartOverlay.tsx";
import { readChartColors } from "./colors.ts";
import { type ChartLiveInputs, chartOptions } from "./options.ts";
import type { Bands } from "./plugins/bands.ts";
import type { LevelPick } from "./plugins/levelPick.ts";
import type { RollMark } from "./plugins/rolls.ts";
import type { ThresholdLine } from "./plugins/thresholds.ts";
import type { TradeMark } from "./plugins/trades.ts";
import { SPREAD_SCALE, setValueScale, type ValueScale } from "./valueScale.ts";
import { type ChartView, homeView, sameView, showsView, toPlotData } from "./view.ts";

export interface SpreadChartHandle {
  resetZoom(): void;
  /** Focuses the plot (its keyboard price level), e.g. when an offer picked there closes. */
  focus(): void;
}

interface SpreadChartProps {
  candles: readonly Candle[];
  timeframe: Timeframe;
  kind: ChartKind;
  theme: string;
  /** Names the data set (symbol and timeframe): a new one rebuilds the chart, new data of the same one does not. */
  dataKey: string;
  /** Mean ± σ bands to draw; none when absent. */
  bands?: Bands;
  /** Alert thresholds to draw as lines. */
  thresholds?: readonly ThresholdLine[];
  /** Rolls of the chart's legs to mark. */
  rolls?: readonly RollMark[];
  /** A backtest's entries and exits. */
  trades?: readonly TradeMark[];
  /** A definition's candles before this time are from its legs' closes, and marked so. */
  legHistoryUntil?: number;
  /** The values' size (valueScale.ts); the built-in spreads' by default. */
  scale?: ValueScale;
  /** The view reached past the oldest candle held. */
  onReachOldest?: () => void;
  /** A price level was clicked (or long-pressed). */
  onPick?: (pick: LevelPick) => void;
  ref?: Ref<SpreadChartHandle>;
}

const NO_LINES: readonly ThresholdLine[] = [];
const NO_ROLLS: readonly RollMark[] = [];
const NO_TRADES: readonly TradeMark[] = [];

declare global {
  interface Window {
    /** The chart's uPlot instance, for the e2e tests and the render benchmark to read scales. */
    __spreadChart?: uPlot;
  }
}

/**
 * Owns the uPlot instance. It is (re)built CHART_BUILD_DELAY_MS after the data set, timeframe,
 * line/candles choice or theme changes (docs/spec.md §4); live data of the same set goes through
 * setData, and the y bounds through setScale, so a zoom survives updates. Resizes go through
 * setSize; unmounting destroys it.
 */
export function SpreadChart(props: SpreadChartProps) {
  const { candles, timeframe, kind, theme, dataKey, ref } = props;
  // Before any home view is worked out below, in render and in the build alike.
  setValueScale(props.scale ?? SPREAD_SCALE);
  const hostRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | undefined>(undefined);
  const homeRef = useRef<ChartView | undefined>(undefined);
  /** What the plot was built for; data of another timeframe or kind waits for the rebuild. */
  const builtFor = useRef("");
  const latest = useRef(candles);
  latest.current = candles;
  // The plugins read the latest props through this, so they change without a rebuild.
  const propsRef = useRef(props);
  propsRef.current = props;
  const live = useRef<ChartLiveInputs>({
    bands: () => propsRef.current.bands,
    thresholds: () => propsRef.current.thresholds ?? NO_LINES,
    rolls: () => propsRef.current.rolls ?? NO_ROLLS,
    legHistoryUntil: () => propsRef.current.legHistoryUntil,
    trades: () => propsRef.current.trades ?? NO_TRADES,
    onReachOldest: () => propsRef.current.onReachOldest?.(),
    onPick: (pick) => propsRef.current.onPick?.(pick),
  }).current;
  const [failed, setFailed] = useState(false);

  useImperativeHandle(ref, () => ({
    resetZoom() {
      const plot = plotRef.current;
      const home = homeRef.current;
      if (!plot || !home) return;
      plot.batch(() => {
        plot.setScale("x", home.x);
        plot.setScale("y", home.y);
      });
    },
    focus() {
      plotRef.current?.over.focus({ preventScroll: true });
    },
  }));

  // dataKey and theme are rebuild triggers: the build reads the data and the colours itself.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const timer = setTimeout(() => {
      destroy(plotRef);
      host.replaceChildren();
      try {
        const home = homeView(latest.current, timeframe, kind === "candles");
        if (!home) throw new Error("no finite candle to draw");
        const options = chartOptions({
          width: host.clientWidth,
          height: host.clientHeight,
          timeframe,
          kind,
          colors: readChartColors(),
          home,
          live,
        });
        const plot = new uPlot(options, toPlotData(latest.current), host);
        // uPlot ranges new scales from the data; the home view is wider (padding, whole candles).
        plot.batch(() => {
          plot.setScale("x", home.x);
          plot.setScale("y", home.y);
        });
        plotRef.current = plot;
        homeRef.current = home;
        builtFor.current = `${dataKey}|${timeframe}|${kind}`;
        // The colours it was drawn in: a theme switch redraws it a moment later (e2e/axe.ts).
        host.dataset.drawnTheme = theme;
        window.__spreadChart = plot;
        setFailed(false);
      } catch (error) {
        console.error("Building the chart failed", error);
        host.replaceChildren();
        setFailed(true);
      }
    }, CHART_BUILD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [dataKey, timeframe, kind, theme]);

  useEffect(() => () => destroy(plotRef), []);

  // Bands, threshold lines and rolls are drawn from propsRef: a redraw picks up new ones (with
  // the paths rebuilt for rolls, whose gaps are in the line's path).
  useEffect(() => {
    plotRef.current?.redraw(false);
  }, [props.bands, props.thresholds, props.legHistoryUntil, props.trades]);
  useEffect(() => {
    plotRef.current?.redraw(true);
  }, [props.rolls]);

  useEffect(() => {
    const plot = plotRef.current;
    const previous = homeRef.current;
    const home = homeView(candles, timeframe, kind === "candles");
    if (!plot || !previous || !home) return;
    // A rebuild is pending (its timer runs): 1m candles on the 1h plot would be drawn in the
    // old view for a moment, and that view lies before their oldest, which asks for older ones.
    if (builtFor.current !== `${dataKey}|${timeframe}|${kind}`) return;
    const untouched = showsView(plot, previous);
    plot.batch(() => {
      plot.setData(toPlotData(candles));
      if (untouched && !sameView(previous, home)) {
        plot.setScale("x", home.x);
        plot.setScale("y", home.y);
      }
    });
    homeRef.current = home;
  }, [candles, timeframe, kind, dataKey]);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const observer = new ResizeObserver(() => {
      const plot = plotRef.current;
      if (plot && (plot.width !== host.clientWidth || plot.height !== host.clientHeight)) {
        plot.setSize({ width: host.clientWidth, height: host.clientHeight });
      }
    });
    observer.observe(host);
    return () => observer.disconnect();
  }, []);

  return (
    <>
      <div ref={hostRef} className="chart__plot" data-testid="spread-chart" />
      {failed && <ChartOverlay tone="error">{CHART_BUILD_ERROR_TEXT}</ChartOverlay>}
    </>
  );
}

function destroy(plotRef: { current: uPlot | undefined }): void {
  const plot = plotRef.current;
  if (!plot) return;
  plot.destroy();
  plotRef.current = undefined;
  if (window.__spreadChart === plot) window.__spreadChart = undefined;
}
