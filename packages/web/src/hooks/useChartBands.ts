import type { ChartSymbol } from "@spreadwatch/core";
import { useQuery } from "@tanstack/react-query";
import type { Bands } from "../components/chart/plugins/bands.ts";

/** Issue 12 §2's default window for the rolling statistics. */
const STATS_DAYS = 20;
const STATS_POLL_MS = 60_000;

/**
 * SEAM for the statistics engineer: the mean and standard deviation the chart's ± σ bands are
 * drawn from. Until `market.stats` exists it reads issue 12 §2's REST twin
 * `GET /api/spread-stats/:symbol?days=20`; while that answers with an error (not built yet)
 * or without finite numbers, there are no bands and the toggle stays hidden. Swap the body
 * for `trpc.market.stats.useQuery({ symbol, days })` once the procedure lands; the chart
 * only needs `{ mean, std }`.
 */
export function useChartBands(symbol: ChartSymbol): Bands | undefined {
  const query = useQuery({
    queryKey: ["chart.bands", symbol, STATS_DAYS],
    queryFn: async ({ signal }) => {
      const response = await fetch(`/api/spread-stats/${symbol}?days=${STATS_DAYS}`, {
        signal,
        credentials: "same-origin",
      });
      if (!response.ok) return null;
      return toBands(await response.json().catch(() => null));
    },
    retry: false,
    refetchInterval: STATS_POLL_MS,
  });
  return query.data ?? undefined;
}

function toBands(body: unknown): Bands | null {
  if (typeof body !== "object" || body === null) return null;
  const { mean, std } = body as Record<string, unknown>;
  if (typeof mean !== "number" || typeof std !== "number") return null;
  if (!Number.isFinite(mean) || !Number.isFinite(std) || std < 0) return null;
  return { mean, std };
}
