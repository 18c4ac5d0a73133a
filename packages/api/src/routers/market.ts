import { EventEmitter, on } from "node:events";
import { TRPCError, type TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { instrumentKey } from "../instruments/instrument-input.ts";
import { pricesWithContracts } from "../market/prices-with-contracts.ts";
import { marketViewer } from "../market/viewer.ts";
import { diffSnapshots, type MarketStreamMessage } from "../stream/delta.ts";
import { marketCalculations, marketPrices } from "../stream/snapshot-schema.ts";
import { streamSelectionInput } from "../stream/stream-selection.ts";
import { checkSelection } from "../stream/stream-selection-input.ts";
import { authedProcedure, publicProcedure } from "../trpc.ts";
import { marketStatsProcedures } from "./market-stats.ts";

/** docs/design.md §3: at most one message per 25 ms per client. */
export const SNAPSHOT_MIN_INTERVAL_MS = 25;

/** The most rolls one answer holds (the latest ones): years of every key's monthly rolls. */
export const MAX_ROLLS = 5_000;

const epochMs = (name: string) =>
  z.coerce
    .number({ error: `${name} must be epoch milliseconds` })
    .int(`${name} must be epoch milliseconds`)
    .min(0, `${name} must be epoch milliseconds`);

const rollsInput = z
  .strictObject({
    key: instrumentKey.optional(),
    from: epochMs("from").optional(),
    to: epochMs("to").optional(),
  })
  .refine(({ from, to }) => from === undefined || to === undefined || from < to, {
    error: "from must be before to",
    path: ["from"],
  });

const rollsReply = z.object({
  rolls: z.array(z.object({ key: z.string(), at: z.number(), from: z.string(), to: z.string() })),
});

export const marketRouter = {
  // Polled every 2 s by every client, and checked like every answer: ~6 µs a pair against
  // ~40 µs to serialise them (BENCHMARKS.md, "Output validation of the polled answers").
  prices: publicProcedure
    .output(marketPrices)
    .query(({ ctx }) => pricesWithContracts(ctx.services.hub.snapshot().prices)),
  // Everybody's spreads, and the signed-in user's private ones (never another user's).
  calculations: publicProcedure
    .output(marketCalculations)
    .query(
      async ({ ctx }) => ctx.services.hub.snapshotFor(await marketViewer(ctx, true)).calculations,
    ),
  snapshot: publicProcedure.query(async ({ ctx }) =>
    ctx.services.hub.snapshotFor(await marketViewer(ctx, true)),
  ),
  ...marketStatsProcedures,
  /**
   * When each key's quotes moved to another contract (docs/user-guide.md "Instruments"), oldest
   * first, in [from, to) (default: all of them).
   */
  rolls: authedProcedure
    .input(rollsInput)
    .output(rollsReply)
    .query(async ({ ctx, input }) => ({
      rolls: await ctx.services.store.contracts.rolls({
        key: input.key,
        from: input.from ?? 0,
        to: input.to ?? Number.MAX_SAFE_INTEGER,
        limit: MAX_ROLLS,
      }),
    })),
  /**
   * The COST_* rates the server's perLot uses: the web app prices a user's mini-lot choice
   * (GOLDM, …) in the browser with core's perLot and needs the same rates (the dashboard is
   * signed in, so this is too).
   */
  costRates: authedProcedure.query(({ ctx }) => ctx.services.hub.costRates),
  /**
   * The typed contract of the live stream. Over HTTP, SnapshotBroadcaster serves this path with
   * the same frames, coalesced, from one serialisation for every client; in process (a caller)
   * this yields the snapshot now and the delta after every hub change. No `.output()`: tRPC's
   * would parse the generator object, not each message.
   */
  onSnapshot: publicProcedure.input(streamSelectionInput.optional()).subscription(async function* ({
    ctx,
    input,
    signal,
  }): AsyncGenerator<MarketStreamMessage> {
    const { hub, shutdownSignal } = ctx.services;
    const viewer = await marketViewer(ctx);
    const selection = checkSelection(input, ctx.services, viewer);
    if (typeof selection === "string")
      throw new TRPCError({ code: "BAD_REQUEST", message: selection });
    const select = (message: MarketStreamMessage) =>
      selection ? selection.select(message) : message;
    const stop = AbortSignal.any([shutdownSignal, ...(signal ? [signal] : [])]);
    const changes = new EventEmitter();
    const unsubscribe = hub.subscribe(() => changes.emit("change"));
    try {
      let last = hub.snapshotFor(viewer);
      yield select({ kind: "snapshot", ...last }) as MarketStreamMessage;
      for await (const _ of on(changes, "change", { signal: stop })) {
        const next = hub.snapshotFor(viewer);
        const delta = select(diffSnapshots(last, next));
        last = next;
        if (delta) yield delta;
      }
    } catch (error) {
      if (!stop.aborted) throw error;
    } finally {
      unsubscribe();
    }
  }),
} satisfies TRPCRouterRecord;
