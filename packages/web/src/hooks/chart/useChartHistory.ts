import { type Candle, MAX_CHART_CANDLES, parseChartData } from "@spreadwatch/core";
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useMemo, useRef } from "react";
import { trpc } from "../../trpc.ts";
import type { ChartKey } from "./useChartData.ts";

export interface ChartHistory {
  /** The older pages and the latest window, oldest first, one candle per open time. */
  candles: readonly Candle[];
  /** Fetches the page before the oldest candle held; a no-op while one loads or none is left. */
  loadOlder(): void;
  loadingOlder: boolean;
  /** The server had nothing before the oldest candle held. */
  exhausted: boolean;
}

/**
 * The latest window (`chart.candles` without `to`, up to 1,500 candles) plus older pages,
 * fetched on demand with `to` = the oldest open time held. Pages live in React Query under the
 * symbol and timeframe, so going back to a chart keeps what was scrolled in.
 */
export function useChartHistory(key: ChartKey, latest: readonly Candle[]): ChartHistory {
  const utils = trpc.useUtils();
  const oldestLatest = latest[0]?.timestamp;
  const older = useInfiniteQuery({
    queryKey: ["chart.olderCandles", key.commodity, key.timeframe],
    queryFn: async ({ pageParam }) => {
      return selectCandles(await utils.client.chart.candles.query({ ...key, to: pageParam }));
    },
    // Read when the first older page is asked for, which only happens once `latest` is known.
    initialPageParam: oldestLatest ?? 0,
    getNextPageParam: (page: Candle[]) => page[0]?.timestamp,
    enabled: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const pages = older.data?.pages;
  // The latest window slides forward as candles close; once older pages are held, the candles
  // that slid out of it (from the first page's `to` on) are fetched too, so no gap opens.
  const firstTo = older.data?.pageParams[0] as number | undefined;
  const gap = firstTo !== undefined && oldestLatest !== undefined && oldestLatest > firstTo;
  const bridge = trpc.chart.candles.useQuery(
    { ...key, from: firstTo ?? 0, to: oldestLatest ?? 0 },
    // The previous bridge's candles stay while the next loads: still older than the window.
    { enabled: gap, select: selectCandles, placeholderData: keepPreviousData },
  );
  const bridged = gap ? bridge.data : undefined;
  const candles = useMemo(
    () => joinCandles(bridged ? [bridged, ...(pages ?? [])] : (pages ?? []), latest),
    [pages, bridged, latest],
  );
  const fetching = useRef(false);
  fetching.current = older.isFetching;
  // A latest window short of a full page is all there is: nothing older to ask for.
  const exhausted =
    latest.length < MAX_CHART_CANDLES || (older.hasNextPage === false && pages !== undefined);
  return {
    candles,
    loadingOlder: older.isFetching,
    exhausted,
    loadOlder() {
      if (fetching.current || exhausted || oldestLatest === undefined) return;
      fetching.current = true;
      void older.fetchNextPage();
    },
  };
}

function selectCandles(body: unknown): Candle[] {
  const parsed = parseChartData(body);
  return parsed.status === "ok" ? parsed.candles : [];
}

/**
 * Older pages (each oldest first; the array newest page first) before the latest window. Where
 * they overlap the latest window wins: its last candle is the forming one.
 */
export function joinCandles(pages: readonly Candle[][], latest: readonly Candle[]): Candle[] {
  if (pages.length === 0) return latest as Candle[];
  const first = latest[0]?.timestamp ?? Number.POSITIVE_INFINITY;
  const before: Candle[] = [];
  for (let i = pages.length - 1; i >= 0; i--) {
    for (const c of pages[i] ?? []) {
      const prev = before.at(-1);
      if (c.timestamp < first && (!prev || c.timestamp > prev.timestamp)) before.push(c);
    }
  }
  return [...before, ...latest];
}
