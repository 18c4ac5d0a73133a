import {
  CHART_SYMBOLS,
  type ChartSymbol,
  chartSymbolLegs,
  chartSymbolValues,
  DEFAULT_STATS_DAYS,
  isChartSymbol,
  STATS_DAYS,
} from "@spreadwatch/core";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import type { Context } from "../context.ts";
import { type HistoryLoading, legsLoading } from "../history/coverage.ts";
import { isUserSideSymbol, visibleDefinition } from "../history/definition-history.ts";
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

// A chart symbol, or a user spread's side (SP7_BUY): which of those the caller sees is the
// resolver's question (404 otherwise, as for another user's private spread).
const symbol = z
  .string({ error: "symbol is required" })
  .refine((s) => isChartSymbol(s) || isUserSideSymbol(s), {
    error: (issue) =>
      `Unknown symbol "${String(issue.input)}". Valid symbols: ${CHART_SYMBOLS.join(", ")}, or a spread's SP<id>_BUY / SP<id>_SELL`,
  });

const figure = z.number().nullable();

const statsReply = z.object({
  symbol: z.string(),
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
  coverage: z.object({
    from: figure,
    to: figure,
    first: figure,
    closes: z.number(),
    contracts: z.record(z.string(), z.string()),
    loading: z.boolean(),
  }),
} satisfies ShapeOf<SpreadStatsAnswer>);

function liveValues(ctx: Context) {
  const { calculations, prices } = ctx.services.hub.snapshot();
  return chartSymbolValues(calculations, prices);
}

/**
 * A user spread's side's value now, as the hub evaluated it at the latest quote of its legs (its
 * live entry: the formula is not evaluated again here).
 */
function valueNow(ctx: Context, symbol: string): number | undefined {
  return ctx.services.hub.entry(symbol)?.spread;
}

/** The instrument keys a chart symbol's or a user spread side's statistics are made of. */
function legKeysOf(ctx: Context, symbol: string): string[] {
  if (isChartSymbol(symbol)) return chartSymbolLegs(symbol).map((leg) => leg.key);
  return ctx.services.spreads.executable(symbol)?.spread.legs.map((leg) => leg.instrument) ?? [];
}

/**
 * The answer with `coverage.loading` also true while its legs' past is on the way (the first
 * start's backfill, a provider's fetch): the window then covers only what was stored so far
 * (docs/history.md, "The first start").
 */
function withLoading<T extends SpreadStatsAnswer>(
  ctx: Context,
  answer: T,
  loading: HistoryLoading,
): T {
  if (answer.coverage.loading || !legsLoading(loading, legKeysOf(ctx, answer.symbol)))
    return answer;
  return { ...answer, coverage: { ...answer.coverage, loading: true } };
}

/** A user spread's side the caller may see, with its live value; else 404. */
function ownSide(ctx: Context & { user: { id: number } }, symbol: string) {
  const definition = visibleDefinition(ctx.services.spreads, ctx.user, symbol);
  if (!definition) throw new TRPCError({ code: "NOT_FOUND", message: "Spread not found" });
  return valueNow(ctx, symbol);
}

/**
 * docs/http-api.md "Per lot and spread statistics": `market.stats` (and its REST twin) and
 * `market.statsAll` for the z column.
 */
export const marketStatsProcedures = {
  stats: authedProcedure
    .input(z.strictObject({ symbol, days }))
    .output(statsReply)
    .query(async ({ ctx, input }) => {
      const answer = isChartSymbol(input.symbol)
        ? ctx.services.stats.stats(input.symbol, input.days, liveValues(ctx)[input.symbol])
        : ctx.services.stats.stats(input.symbol, input.days, ownSide(ctx, input.symbol));
      return withLoading(ctx, await answer, await ctx.services.history.loading());
    }),
  /**
   * Every symbol in one answer, so the Spread table's z column is one request a minute; with
   * each window's 101 percentiles, for the browser's percentile alerts. The chart symbols, then
   * both sides of every user spread the caller sees.
   */
  statsAll: authedProcedure
    .input(z.strictObject({ days }).default({ days: DEFAULT_STATS_DAYS }))
    .query(async ({ ctx, input }) => {
      const values = liveValues(ctx);
      const own = ctx.services.spreads
        .visibleTo(ctx.user)
        .filter((spread) => !spread.builtin)
        .flatMap((spread) => (["BUY", "SELL"] as const).map((side) => ({ spread, side })));
      const loading = ctx.services.history.loading();
      const answers = await Promise.all([
        ...CHART_SYMBOLS.map((s) =>
          ctx.services.stats.statsWithQuantiles(s, input.days, values[s]),
        ),
        ...own.map((definition) => {
          const symbol = `${definition.spread.symbol}_${definition.side}`;
          return ctx.services.stats.statsWithQuantiles(symbol, input.days, valueNow(ctx, symbol));
        }),
      ]);
      const history = await loading;
      return {
        days: input.days,
        stats: Object.fromEntries(
          answers.map((a) => [a.symbol, withLoading(ctx, a, history)]),
        ) as Record<ChartSymbol, SpreadStatsWithQuantiles> &
          Partial<Record<string, SpreadStatsWithQuantiles>>,
      };
    }),
};
