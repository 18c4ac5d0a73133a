import {
  DEFAULT_CHART_SYMBOL,
  DEFAULT_TIMEFRAME,
  isTimeframe,
  type Timeframe,
} from "@spreadwatch/core";
import { useHistoryState } from "wouter/use-browser-location";
import { isChartCommodity } from "../../market/chartSymbols.ts";

export type ChartKind = "line" | "candles";

/**
 * What the chart screen keeps in `history.state`. The dashboard opens the chart with
 * `navigate("/advanced-chart", { state: { commodity: "SI_SELL" } })`; the screen writes its
 * selections back with replaceState, so a reload or Back/Forward keeps them.
 */
export interface ChartNavigationState {
  /** A built-in chart symbol (GC_BUY, NIFTY) or a definition's (SP7_BUY). */
  commodity?: string;
  timeframe?: Timeframe;
  kind?: ChartKind;
  /** Whether the ± σ bands are on. */
  bands?: boolean;
  /** Whether candles before a roll are back-adjusted (docs/user-guide.md "Instruments"). */
  adjusted?: boolean;
}

export interface ChartSelection {
  commodity: string;
  timeframe: Timeframe;
  kind: ChartKind;
  bands: boolean;
  adjusted: boolean;
  select(patch: ChartNavigationState): void;
}

/** The last selection, for the next visit to the chart (docs/decisions.md). */
const STORAGE_KEY = "spreadwatch.chart";

function remembered(): Record<string, unknown> {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}");
    return typeof saved === "object" && saved !== null ? (saved as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function remember(selection: ChartNavigationState): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(selection));
  } catch {
    // Storage full or blocked (private mode): the selection just is not remembered.
  }
}

/**
 * The chart's commodity, timeframe, line/candles choice, bands and back-adjusted toggles: from history.state
 * (navigation from the dashboard, or this tab's earlier choices), else the last ones made in
 * this browser, else docs/spec.md §2's defaults.
 */
export function useChartSelection(): ChartSelection {
  const state: unknown = useHistoryState();
  const nav = typeof state === "object" && state !== null ? (state as Record<string, unknown>) : {};
  const saved = remembered();
  const pick = (key: string) => (key in nav ? nav[key] : saved[key]);
  const commodity = pick("commodity");
  const timeframe = pick("timeframe");
  const selection = {
    commodity: isChartCommodity(commodity) ? commodity : (DEFAULT_CHART_SYMBOL as string),
    timeframe: isTimeframe(timeframe) ? timeframe : DEFAULT_TIMEFRAME,
    kind: pick("kind") === "candles" ? ("candles" as const) : ("line" as const),
    bands: pick("bands") === true,
    adjusted: pick("adjusted") === true,
  };
  return {
    ...selection,
    select: (patch) => {
      remember({ ...selection, ...patch });
      history.replaceState({ ...nav, ...patch }, "");
    },
  };
}
