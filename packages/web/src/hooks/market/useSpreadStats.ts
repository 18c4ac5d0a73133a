import { type ChartSymbol, DEFAULT_STATS_DAYS } from "@spreadwatch/core";
import { trpc } from "../../trpc.ts";

/** The statistics move once a minute, when a candle closes. */
const STATS_POLL_MS = 60_000;
/**
 * While a spread's past loads (`coverage.loading`), asked more often: the statistics are read
 * again when the backfill or a fetch is stored, and the page shows that within seconds.
 */
const LOADING_POLL_MS = 5_000;

/**
 * Every symbol's 20-day statistics, from one `market.statsAll` request a minute shared by every
 * caller (React Query dedupes the identical queries): the Spread table's z column, and z-score
 * and percentile alerts (`enabled` while any alert needs them).
 */
export function useAllSpreadStats(enabled = true) {
  const query = trpc.market.statsAll.useQuery(
    { days: DEFAULT_STATS_DAYS },
    {
      enabled,
      refetchInterval: (query) =>
        Object.values(query.state.data?.stats ?? {}).some((s) => s?.coverage.loading)
          ? LOADING_POLL_MS
          : STATS_POLL_MS,
      retry: false,
      staleTime: LOADING_POLL_MS,
    },
  );
  return query.data?.stats;
}

/** One symbol's 20-day statistics (see useAllSpreadStats). */
export function useSpreadStats(symbol: string) {
  // A definition's SP7_BUY is answered like a built-in's symbol (docs/user-guide.md "Spreads of
  // your own").
  return useAllSpreadStats()?.[symbol as ChartSymbol];
}
