import { type ChartSymbol, DEFAULT_STATS_DAYS } from "@spreadwatch/core";
import type { AlertStatistics } from "../components/alerts/metric.ts";
import { trpc } from "../trpc.ts";

/** The statistics move once a minute, when a candle closes (as useSpreadStats). */
const STATS_POLL_MS = 60_000;

/**
 * Every symbol's 20-day statistics for z-score and percentile alerts: the same
 * `market.statsAll` query as the Spread table's z column, so React Query shares one request.
 */
export function useAlertStatistics(
  enabled: boolean,
): Partial<Record<ChartSymbol, AlertStatistics>> | undefined {
  const query = trpc.market.statsAll.useQuery(
    { days: DEFAULT_STATS_DAYS },
    { enabled, refetchInterval: STATS_POLL_MS, retry: false, staleTime: STATS_POLL_MS / 2 },
  );
  return query.data?.stats;
}
