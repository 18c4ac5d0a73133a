import {
  CHART_SYMBOLS,
  type ChartSymbol,
  chartSymbolValues,
  DEFAULT_STATS_DAYS,
  isChartSymbol,
  STATS_DAYS,
} from "@spreadwatch/core";
import { z } from "zod";
import type { Context } from "../context.ts";
import type {
  SpreadStatsAnswer,
  SpreadStatsWithQuantiles,
  StatsDays,
} from "../stats/spread-stats-service.ts";
import { authedProcedure } from "../trpc.ts";
import type { ShapeOf } from "./shared.ts";

const DAYS_SENTENCE = `days must be one of ${STATS_DAYS.join(", ")}`;

// Coerced: REST passes `?days=20` as text.
const days = z.coerce
  .number({ error: DAYS_SENTENCE })
  .refine((d): d is StatsDays => (STATS_DAYS as readonly number[]).includes(d), DAYS_SENTENCE)
  .default(DEFAULT_STATS_DAYS)
  .transform((d) => d as StatsDays);

const symbol = z.string({ error: "symbol is required" }).refine(isChartSymbol, {
  error: (issue) =>
    `Unknown symbol "${String(issue.input)}". Valid symbols: ${CHART_SYMBOLS.join(", ")}`,
});

const figure = z.number().nullable();

const statsReply = z.object({
  symbol: z.enum(CHART_SYMBOLS as [ChartSymbol, ...ChartSymbol[]]),
  days: z.literal(STATS_DAYS),
  n: z.number(),
  value: figure,
  mean: figure,
  std: figure,
  z: figure,
  percentile: figure,
  min: figure,
  max: figure,
  from: figure,
  to: figure,
} satisfies ShapeOf<SpreadStatsAnswer>);

function liveValues(ctx: Context) {
  const { calculations, prices } = ctx.services.hub.snapshot();
  return chartSymbolValues(calculations, prices);
}

/** docs/issues/12.md §2: `market.stats` (and its REST twin) and `market.statsAll` for the z column. */
export const marketStatsProcedures = {
  stats: authedProcedure
    .input(z.object({ symbol, days }))
    .output(statsReply)
    .query(({ ctx, input }) => {
      const s = input.symbol as ChartSymbol;
      return ctx.services.stats.stats(s, input.days, liveValues(ctx)[s]);
    }),
  /**
   * Every symbol in one answer, so the Spread table's z column is one request a minute; with
   * each window's 101 percentiles, for the browser's percentile alerts.
   */
  statsAll: authedProcedure
    .input(z.object({ days }).default({ days: DEFAULT_STATS_DAYS }))
    .query(async ({ ctx, input }) => {
      const values = liveValues(ctx);
      const answers = await Promise.all(
        CHART_SYMBOLS.map((s) => ctx.services.stats.statsWithQuantiles(s, input.days, values[s])),
      );
      return {
        days: input.days,
        stats: Object.fromEntries(answers.map((a) => [a.symbol, a])) as Record<
          ChartSymbol,
          SpreadStatsWithQuantiles
        >,
      };
    }),
};
