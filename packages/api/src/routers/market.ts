import type { TRPCRouterRecord } from "@trpc/server";
import { snapshotStream } from "../market/snapshot-stream.ts";
import { publicProcedure } from "../trpc.ts";

/** DESIGN §3: at most one message per 25 ms per client. */
export const SNAPSHOT_MIN_INTERVAL_MS = 25;

export const marketRouter = {
  prices: publicProcedure.query(({ ctx }) => ctx.services.hub.snapshot().prices),
  calculations: publicProcedure.query(({ ctx }) => ctx.services.hub.snapshot().calculations),
  snapshot: publicProcedure.query(({ ctx }) => ctx.services.hub.snapshot()),
  /**
   * The typed contract of the live stream (and its in-process implementation, e.g. for
   * createCaller). Over HTTP, SnapshotBroadcaster serves this path with the same frames.
   */
  onSnapshot: publicProcedure.subscription(({ ctx, signal }) => {
    const stop = AbortSignal.any(
      [ctx.services.shutdownSignal, signal].filter((s): s is AbortSignal => s !== undefined),
    );
    return snapshotStream(ctx.services.hub, stop, SNAPSHOT_MIN_INTERVAL_MS);
  }),
} satisfies TRPCRouterRecord;
