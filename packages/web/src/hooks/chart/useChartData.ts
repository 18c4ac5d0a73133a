import {
  type Candle,
  type ChartData,
  type ChartSymbol,
  parseChartData,
  type Timeframe,
} from "@spreadwatch/core";
import { keepPreviousData } from "@tanstack/react-query";
import { useState } from "react";
import { trpc } from "../../trpc.ts";

export interface ChartKey {
  /** A built-in chart symbol or a definition's SP7_BUY. */
  commodity: string;
  timeframe: Timeframe;
}

export type ChartDataState =
  | { status: "loading" }
  | { status: "error" }
  | { status: "no-data" | "invalid" }
  | { status: "ok"; candles: Candle[] };

export interface ChartDataResult {
  state: ChartDataState;
  /**
   * A definition's creation time, when its candles before it were computed from its legs'
   * closes (the chart data's `legHistoryUntil`); undefined for built-ins.
   */
  legHistoryUntil?: number;
  /** Whose candles `state` holds: while a new selection loads, the previous one's stay shown. */
  shown: ChartKey;
  /** A new selection is loading (the previous selection's chart stays under the overlay). */
  loading: boolean;
  refetch: () => void;
}

type ChartAnswer = ChartData & { legHistoryUntil?: number };

/** docs/spec.md §3 and §5: the response goes through core's parser even though tRPC types it. */
const select = (body: unknown): ChartAnswer => {
  const until = (body as { legHistoryUntil?: unknown } | null)?.legHistoryUntil;
  const parsed = parseChartData(body);
  return typeof until === "number" && Number.isFinite(until)
    ? { ...parsed, legHistoryUntil: until }
    : parsed;
};

/** Candles of one chart symbol and timeframe from `chart.candles`; a new selection refetches. */
export function useChartData(key: ChartKey): ChartDataResult {
  const query = trpc.chart.candles.useQuery(
    { ...key, commodity: key.commodity as ChartSymbol },
    { select, placeholderData: keepPreviousData },
  );
  const [shown, setShown] = useState(key);
  const settled = query.data !== undefined && !query.isPlaceholderData;
  if (settled && (shown.commodity !== key.commodity || shown.timeframe !== key.timeframe)) {
    setShown(key);
  }
  const refetch = () => void query.refetch();
  const loading = query.isPending || query.isPlaceholderData;
  if (query.isError && query.data === undefined) {
    return { state: { status: "error" }, shown: key, loading: false, refetch };
  }
  const data = query.data;
  if (data === undefined) return { state: { status: "loading" }, shown, loading, refetch };
  const state: ChartDataState =
    data.status === "ok" ? { status: "ok", candles: data.candles } : { status: data.status };
  const until = data.legHistoryUntil;
  return {
    state,
    shown: settled ? key : shown,
    loading,
    refetch,
    ...(until !== undefined && { legHistoryUntil: until }),
  };
}
