import { asc, count, inArray, min, type SQL } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { outboxQueries } from "../store/queries.ts";
import type { OutboxBacklog, OutboxStore } from "../store/store.ts";
import { changed, type PgDb } from "./connection.ts";
import { outbox } from "./schema.ts";

/**
 * Claiming as graphile/worker's getJob does: due rows whose lease is free or ran out, locked
 * with SKIP LOCKED so a second sender passes over rows the first is claiming instead of waiting
 * for them (and then taking them too), stamped with who holds them and until when.
 */
export function pgOutbox(db: PgDb): OutboxStore {
  const q = outboxQueries(outbox);
  const change = (set: PgUpdateSetSource<typeof outbox>, where: SQL | undefined) =>
    changed(db.update(outbox).set(set).where(where));
  return {
    async claim(claim) {
      const heads = db
        .select({ id: min(outbox.id) })
        .from(outbox)
        .where(q.unsent(claim.channel))
        .groupBy(outbox.userId);
      const due = db
        .select({ id: outbox.id })
        .from(outbox)
        .where(q.claimable(claim, heads))
        .orderBy(asc(outbox.id))
        .limit(claim.limit)
        .for("update", { skipLocked: true });
      const claimed = db.update(outbox).set(q.claimed(claim)).where(inArray(outbox.id, due));
      return (await claimed.returning()).sort((a, b) => a.id - b.id);
    },
    markSent: async (id, instanceId, now) =>
      (await change(q.sent(now), q.mine(id, instanceId))) > 0,
    markRetry: async (id, instanceId, error, nextAttemptAt) =>
      (await change(q.retry(error, nextAttemptAt), q.mine(id, instanceId))) > 0,
    markFailed: async (id, instanceId, error, now) =>
      (await change(q.failed(error, now), q.mine(id, instanceId))) > 0,
    renew: async (ids, instanceId, until) =>
      ids.length === 0 ? 0 : change({ claimedUntil: until }, q.renewable(ids, instanceId)),
    release: (instanceId, channel) => change(q.released, q.heldBy(instanceId, channel)),
    backlog: async () =>
      (await db
        .select({
          channel: outbox.channel,
          pending: count(),
          oldestCreatedAt: min(outbox.createdAt),
        })
        .from(outbox)
        .where(q.unsent())
        .groupBy(outbox.channel)) as OutboxBacklog[],
    list: () => db.select().from(outbox).orderBy(asc(outbox.id)),
  };
}
