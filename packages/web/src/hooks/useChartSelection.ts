import {
  type ChartSymbol,
  DEFAULT_CHART_SYMBOL,
  DEFAULT_TIMEFRAME,
  isChartSymbol,
  isTimeframe,
  type Timeframe,
} from "@spreadwatch/core";
import { useHistoryState } from "wouter/use-browser-location";

export type ChartKind = "line" | "candles";

/**
 * What the chart screen keeps in `history.state`. The dashboard opens the chart with
 * `navigate("/advanced-chart", { state: { commodity: "SI_SELL" } })`; the screen writes its
 * selections back with replaceState, so a reload or Back/Forward keeps them.
 */
export interface ChartNavigationState {
  commodity?: ChartSymbol;
  timeframe?: Timeframe;
  kind?: ChartKind;
}

export interface ChartSelection {
  commodity: ChartSymbol;
  timeframe: Timeframe;
  kind: ChartKind;
  select(patch: ChartNavigationState): void;
}

/** The chart's commodity, timeframe and line/candles choice, defaulted per spec §2. */
export function useChartSelection(): ChartSelection {
  const state: unknown = useHistoryState();
  const saved =
    typeof state === "object" && state !== null ? (state as Record<string, unknown>) : {};
  return {
    commodity: isChartSymbol(saved.commodity) ? saved.commodity : DEFAULT_CHART_SYMBOL,
    timeframe: isTimeframe(saved.timeframe) ? saved.timeframe : DEFAULT_TIMEFRAME,
    kind: saved.kind === "candles" ? "candles" : "line",
    select: (patch) => history.replaceState({ ...saved, ...patch }, ""),
  };
}
