import { type ChartSymbol, DEFAULT_STATS_DAYS } from "@spreadwatch/core";
import { trpc } from "../../trpc.ts";

/** The statistics move once a minute, when a candle closes. */
const STATS_POLL_MS = 60_000;

/**
 * Every symbol's 20-day statistics, from one `market.statsAll` request a minute shared by every
 * caller (React Query dedupes the identical queries): the Spread table's z column, and z-score
 * and percentile alerts (`enabled` while any alert needs them).
 */
export function useAllSpreadStats(enabled = true) {
  const query = trpc.market.statsAll.useQuery(
    { days: DEFAULT_STATS_DAYS },
    { enabled, refetchInterval: STATS_POLL_MS, retry: false, staleTime: STATS_POLL_MS / 2 },
  );
  return query.data?.stats;
}

/** One symbol's 20-day statistics (see useAllSpreadStats). */
export function useSpreadStats(symbol: string) {
  // A definition's SP7_BUY is answered like a built-in's symbol (docs/user-guide.md "Spreads of
  // your own").
  return useAllSpreadStats()?.[symbol as ChartSymbol];
}
