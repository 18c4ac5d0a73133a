import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { adminProcedure, authedProcedure } from "../trpc.ts";

const span = z.object({ from: z.number(), to: z.number() });

const instrumentCoverage = z.object({
  key: z.string(),
  contract: z.string().nullable(),
  source: z.enum(["kite", "yahoo", "recorded", "simulated"]),
  resolution: z.string(),
  from: z.number().nullable(),
  to: z.number().nullable(),
  minutes: z.number(),
  gaps: z.array(span),
  fetching: z.boolean(),
  progress: z.object({ done: z.number(), total: z.number() }),
  lastFetchAt: z.number().nullable(),
  error: z.string().nullable(),
});

const fetchInput = z
  .strictObject({
    keys: z
      .array(z.string({ error: "keys must be instrument keys" }).min(1).max(40), {
        error: "keys must be a list of instrument keys",
      })
      .max(200, "keys: at most 200")
      .optional(),
  })
  .default({});

/** The providers' past (docs/market-data.md, "The past from the providers"). */
export const historyRouter = {
  /** Every instrument in use: where its past in the statistics window came from, and its gaps. */
  coverage: authedProcedure
    .output(z.object({ instruments: z.array(instrumentCoverage) }))
    .query(async ({ ctx }) => ({ instruments: await ctx.services.history.coverage() })),
  /** Admin: the leader fetches the whole window again (of `keys`, or of every key in use). */
  fetchAgain: adminProcedure
    .input(fetchInput)
    .output(z.object({ ok: z.literal(true), keys: z.array(z.string()) }))
    .mutation(async ({ ctx, input }) => {
      const inUse = new Set(ctx.services.instruments.inUse().map((s) => s.key));
      const unknown = input.keys?.find((key) => !inUse.has(key));
      if (unknown !== undefined)
        throw new TRPCError({
          code: "BAD_REQUEST",
          message: `keys: ${unknown} is not an instrument in use`,
        });
      const keys = input.keys ?? [...inUse];
      await ctx.services.history.fetchAgain(input.keys ?? null);
      return { ok: true as const, keys };
    }),
} satisfies TRPCRouterRecord;
