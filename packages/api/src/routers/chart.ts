import {
  type Candle,
  CHART_SYMBOLS,
  type ChartSymbol,
  DEFAULT_TIMEFRAME,
  isChartSymbol,
  MAX_CHART_CANDLES,
  TIMEFRAMES,
} from "@spreadwatch/core";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { authedProcedure } from "../trpc.ts";
import type { ShapeOf } from "./shared.ts";

const epochMs = (name: string) =>
  z.coerce
    .number({ error: `${name} must be epoch milliseconds` })
    .int(`${name} must be epoch milliseconds`);

const candlesInput = z.object({
  commodity: z.string({ error: "commodity is required" }).refine(isChartSymbol, {
    error: (issue) =>
      `Unknown commodity "${String(issue.input)}". Valid codes: ${CHART_SYMBOLS.join(", ")}`,
  }),
  timeframe: z
    .enum(TIMEFRAMES, { error: `timeframe must be one of ${TIMEFRAMES.join(", ")}` })
    .default(DEFAULT_TIMEFRAME),
  from: epochMs("from").optional(),
  to: epochMs("to").optional(),
});

const candle = z.object({
  timestamp: z.number(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
} satisfies ShapeOf<Candle>);

export const candlesReply = z.object({ data: z.array(candle) });

/** The forming candle replaces a stored one of the same bucket (it carries everything since). */
function withForming(
  candles: Candle[],
  forming: Readonly<Candle> | undefined,
  from?: number,
  to?: number,
): Candle[] {
  if (!forming) return candles;
  if (
    (from !== undefined && forming.timestamp < from) ||
    (to !== undefined && forming.timestamp >= to)
  )
    return candles;
  const last = candles.at(-1);
  if (last && last.timestamp > forming.timestamp) return candles;
  const head = last?.timestamp === forming.timestamp ? candles.slice(0, -1) : candles;
  return [...head, { ...forming }].slice(-MAX_CHART_CANDLES);
}

export const chartRouter = {
  /** docs/spec.md §3's chart data: oldest first, at most 1,500 candles, the forming candle last. */
  candles: authedProcedure
    .input(candlesInput)
    .output(candlesReply)
    .query(async ({ ctx, input }) => {
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
      return { data: withForming(stored, forming, input.from, input.to) };
    }),
} satisfies TRPCRouterRecord;
