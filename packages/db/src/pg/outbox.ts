import { asc, inArray, min, type SQL } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import {
  claimable,
  claimedBy,
  failedChange,
  heldBy,
  mine,
  RELEASED,
  renewable,
  retryChange,
  sentChange,
  unsent,
} from "../store/queries.ts";
import type { OutboxStore } from "../store/store.ts";
import { changed, type PgDb } from "./connection.ts";
import { outbox } from "./schema.ts";

/**
 * Claiming as graphile/worker's getJob does: due rows whose lease is free or ran out, locked
 * with SKIP LOCKED so a second sender passes over rows the first is claiming instead of waiting
 * for them (and then taking them too), stamped with who holds them and until when.
 */
export function pgOutbox(db: PgDb): OutboxStore {
  const change = (set: PgUpdateSetSource<typeof outbox>, where: SQL | undefined) =>
    changed(db.update(outbox).set(set).where(where));
  return {
    async claim(claim) {
      const heads = db
        .select({ id: min(outbox.id) })
        .from(outbox)
        .where(unsent(outbox, claim.channel))
        .groupBy(outbox.userId);
      const due = db
        .select({ id: outbox.id })
        .from(outbox)
        .where(claimable(outbox, claim, heads))
        .orderBy(asc(outbox.id))
        .limit(claim.limit)
        .for("update", { skipLocked: true });
      const claimed = db.update(outbox).set(claimedBy(claim)).where(inArray(outbox.id, due));
      return (await claimed.returning()).sort((a, b) => a.id - b.id);
    },
    markSent: async (id, instanceId, now) =>
      (await change(sentChange(now), mine(outbox, id, instanceId))) > 0,
    markRetry: async (id, instanceId, error, nextAttemptAt) =>
      (await change(retryChange(outbox, error, nextAttemptAt), mine(outbox, id, instanceId))) > 0,
    markFailed: async (id, instanceId, error, now) =>
      (await change(failedChange(error, now), mine(outbox, id, instanceId))) > 0,
    renew: async (ids, instanceId, until) =>
      ids.length === 0 ? 0 : change({ claimedUntil: until }, renewable(outbox, ids, instanceId)),
    release: (instanceId, channel) => change(RELEASED, heldBy(outbox, instanceId, channel)),
    list: () => db.select().from(outbox).orderBy(asc(outbox.id)),
  };
}
