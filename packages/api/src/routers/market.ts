import { EventEmitter, on } from "node:events";
import type { TRPCRouterRecord } from "@trpc/server";
import { diffSnapshots, type MarketStreamMessage } from "../market/delta.ts";
import { marketCalculations, marketPrices } from "../market/snapshot-schema.ts";
import { authedProcedure, publicProcedure } from "../trpc.ts";
import { marketStatsProcedures } from "./market-stats.ts";

/** docs/design.md §3: at most one message per 25 ms per client. */
export const SNAPSHOT_MIN_INTERVAL_MS = 25;

export const marketRouter = {
  // Polled every 2 s by every client, and checked like every answer: ~6 µs a pair against
  // ~40 µs to serialise them (BENCHMARKS.md, "Output validation of the polled answers").
  prices: publicProcedure
    .output(marketPrices)
    .query(({ ctx }) => ctx.services.hub.snapshot().prices),
  calculations: publicProcedure
    .output(marketCalculations)
    .query(({ ctx }) => ctx.services.hub.snapshot().calculations),
  snapshot: publicProcedure.query(({ ctx }) => ctx.services.hub.snapshot()),
  ...marketStatsProcedures,
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
  onSnapshot: publicProcedure.subscription(async function* ({
    ctx,
    signal,
  }): AsyncGenerator<MarketStreamMessage> {
    const { hub, shutdownSignal } = ctx.services;
    const stop = AbortSignal.any([shutdownSignal, ...(signal ? [signal] : [])]);
    const changes = new EventEmitter();
    const unsubscribe = hub.subscribe(() => changes.emit("change"));
    try {
      let last = hub.snapshot();
      yield { kind: "snapshot", ...last };
      for await (const _ of on(changes, "change", { signal: stop })) {
        const next = hub.snapshot();
        yield diffSnapshots(last, next);
        last = next;
      }
    } catch (error) {
      if (!stop.aborted) throw error;
    } finally {
      unsubscribe();
    }
  }),
} satisfies TRPCRouterRecord;
