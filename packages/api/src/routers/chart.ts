import {
  backAdjustCandles,
  type Candle,
  CHART_SYMBOLS,
  type ChartSymbol,
  chartSymbolLegs,
  DEFAULT_TIMEFRAME,
  isChartSymbol,
  MAX_CHART_CANDLES,
  TIMEFRAMES,
} from "@spreadwatch/core";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import type { Context } from "../context.ts";
import {
  candlesFromLegHistory,
  isUserSideSymbol,
  ownHistoryStart,
  visibleDefinition,
  withForming,
} from "../history/definition-history.ts";
import { authedProcedure } from "../trpc.ts";
import { MAX_ROLLS } from "./market.ts";
import type { ShapeOf } from "./shared.ts";

const epochMs = (name: string) =>
  z.coerce
    .number({ error: `${name} must be epoch milliseconds` })
    .int(`${name} must be epoch milliseconds`);

const candlesInput = z.strictObject({
  // A user spread's side (SP7_BUY) passes here; whether the caller sees it is the resolver's.
  commodity: z
    .string({ error: "commodity is required" })
    .refine((c) => isChartSymbol(c) || isUserSideSymbol(c), {
      error: (issue) =>
        `Unknown commodity "${String(issue.input)}". Valid codes: ${CHART_SYMBOLS.join(", ")}`,
    }),
  timeframe: z
    .enum(TIMEFRAMES, { error: `timeframe must be one of ${TIMEFRAMES.join(", ")}` })
    .default(DEFAULT_TIMEFRAME),
  from: epochMs("from").optional(),
  to: epochMs("to").optional(),
  /** "back": every candle before a roll of a leg shifted by the gap at it; absent: as quoted. */
  adjust: z
    .enum(["back"], {
      error: 'adjust must be "back" (or left out for the candles as quoted)',
    })
    .optional(),
});

const candle = z.object({
  timestamp: z.number(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
} satisfies ShapeOf<Candle>);

export const candlesReply = z.object({
  data: z.array(candle),
  /**
   * A user spread's only: candles that start before this time are computed from its legs'
   * closes (docs/formulas.md, "History from the legs"); from it on they are its own, recorded.
   */
  legHistoryUntil: z.number().optional(),
});

export const chartRouter = {
  /** docs/spec.md §3's chart data: oldest first, at most 1,500 candles, the forming candle last. */
  candles: authedProcedure
    .input(candlesInput)
    .output(candlesReply)
    .query(async ({ ctx, input }) => {
      if (!isChartSymbol(input.commodity)) return ownSpreadCandles(ctx, input);
      const symbol = input.commodity as ChartSymbol;
      // Candles closed in the last second may still be queued: write them so they are read.
      await ctx.services.recorder.writePending();
      const stored = await ctx.services.store.candles.recent({
        symbol,
        timeframe: input.timeframe,
        limit: MAX_CHART_CANDLES,
        ...(input.from !== undefined && { from: input.from }),
        ...(input.to !== undefined && { to: input.to }),
      });
      const forming = ctx.services.recorder.forming(symbol, input.timeframe);
      const data = withForming(stored, forming, { ...input, limit: MAX_CHART_CANDLES });
      if (input.adjust !== "back") return { data };
      const keys = chartSymbolLegs(symbol).map((leg) => leg.key);
      return { data: await backAdjusted(ctx.services.store, keys, data) };
    }),
} satisfies TRPCRouterRecord;

/**
 * A user spread side's candles: its own from its first recorded one on, and before that (up to
 * 1,500 in all) its legs' history evaluated with its formula. 404 for one the caller cannot see.
 */
async function ownSpreadCandles(
  ctx: Context & { user: { id: number } },
  input: z.infer<typeof candlesInput>,
): Promise<z.infer<typeof candlesReply>> {
  const symbol = input.commodity;
  const definition = visibleDefinition(ctx.services.spreads, ctx.user, symbol);
  if (!definition) throw new TRPCError({ code: "NOT_FOUND", message: "Spread not found" });
  const { store, recorder } = ctx.services;
  await recorder.writePending();
  const forming = recorder.forming(symbol, input.timeframe);
  const own = await ownHistoryStart(store, symbol, input.timeframe, definition.spread, forming);
  const stored = await store.candles.recent({
    symbol,
    timeframe: input.timeframe,
    limit: MAX_CHART_CANDLES,
    ...(input.from !== undefined && { from: input.from }),
    ...(input.to !== undefined && { to: input.to }),
  });
  const recorded = withForming(stored, forming, { ...input, limit: MAX_CHART_CANDLES });
  const legsUntil = input.to === undefined ? own : Math.min(input.to, own);
  const fromLegs =
    input.from !== undefined && input.from >= legsUntil
      ? []
      : await candlesFromLegHistory(
          store,
          definition.spread,
          input.timeframe,
          {
            from: input.from,
            to: legsUntil,
            limit: MAX_CHART_CANDLES - recorded.length,
          },
          (key, timeframe) => recorder.formingLeg(key, timeframe),
        );
  const data = [...fromLegs, ...recorded];
  if (input.adjust !== "back") return { data, legHistoryUntil: own };
  const keys = definition.spread.legs.map((leg) => leg.instrument);
  return { data: await backAdjusted(store, keys, data), legHistoryUntil: own };
}

/**
 * `candles` back-adjusted at the rolls of `keys` inside them (core's backAdjustCandles): what
 * the chart's Back-adjusted toggle shows, so a contract change does not read as a move.
 */
async function backAdjusted(
  store: Context["services"]["store"],
  keys: readonly string[],
  candles: readonly Candle[],
): Promise<Candle[]> {
  const first = candles[0];
  if (!first) return [];
  const legs = new Set(keys);
  const rolls = (
    await store.contracts.rolls({
      from: first.timestamp,
      to: Number.MAX_SAFE_INTEGER,
      limit: MAX_ROLLS,
    })
  ).filter((roll) => legs.has(roll.key));
  return [...backAdjustCandles(candles, rolls)];
}
