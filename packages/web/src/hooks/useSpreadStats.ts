import { type ChartSymbol, DEFAULT_STATS_DAYS } from "@spreadwatch/core";
import { trpc } from "../trpc.ts";

/** The statistics move once a minute, when a candle closes. */
const STATS_POLL_MS = 60_000;

/**
 * The 20-day statistics of one symbol, from one `market.statsAll` request a minute shared by
 * every row of the table (React Query dedupes the identical queries).
 */
export function useSpreadStats(symbol: ChartSymbol) {
  const query = trpc.market.statsAll.useQuery(
    { days: DEFAULT_STATS_DAYS },
    { refetchInterval: STATS_POLL_MS, retry: false, staleTime: STATS_POLL_MS / 2 },
  );
  return query.data?.stats[symbol];
}
