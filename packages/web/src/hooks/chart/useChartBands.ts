import { type ChartSymbol, DEFAULT_STATS_DAYS } from "@spreadwatch/core";
import { useMemo } from "react";
import type { Bands } from "../../components/chart/plugins/bands.ts";
import { trpc } from "../../trpc.ts";

const STATS_POLL_MS = 60_000;

/**
 * The mean and standard deviation the chart's ± σ bands are drawn from (docs/formulas.md,
 * "Statistics"; 20 days). Without both as finite numbers (no history yet, or an error) there are no
 * bands and the toggle stays hidden.
 */
export function useChartBands(symbol: string): Bands | undefined {
  const query = trpc.market.stats.useQuery(
    // A definition's SP7_BUY is asked for like a built-in's symbol (docs/user-guide.md "Spreads of
    // your own").
    { symbol: symbol as ChartSymbol, days: DEFAULT_STATS_DAYS },
    { refetchInterval: STATS_POLL_MS, retry: false },
  );
  const { mean, std } = query.data ?? {};
  // One object per (mean, std): the chart redraws its bands when this changes identity.
  return useMemo(() => {
    if (typeof mean !== "number" || typeof std !== "number") return undefined;
    if (!Number.isFinite(mean) || !Number.isFinite(std) || std < 0) return undefined;
    return { mean, std };
  }, [mean, std]);
}
