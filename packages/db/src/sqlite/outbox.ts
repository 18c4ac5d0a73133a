import { asc, count, inArray, min, type SQL } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { outboxQueries } from "../store/queries.ts";
import type { OutboxBacklog, OutboxStore } from "../store/store.ts";
import { changed } from "./connection.ts";
import { outbox } from "./schema.ts";
import type { Sqlite } from "./store.ts";

/**
 * SQLite's outbox claiming: one writer at a time, so a single UPDATE … WHERE id IN (SELECT …)
 * is already exclusive; the lease columns are kept as on PostgreSQL so both behave the same.
 */
export function sqliteOutbox({ db, run }: Sqlite): OutboxStore {
  const q = outboxQueries(outbox);
  const change = (set: SQLiteUpdateSetSource<typeof outbox>, where: SQL | undefined) =>
    changed(db.update(outbox).set(set).where(where));
  return {
    claim: (claim) =>
      run(() => {
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
          .limit(claim.limit);
        const claimed = db.update(outbox).set(q.claimed(claim)).where(inArray(outbox.id, due));
        return claimed
          .returning()
          .all()
          .sort((a, b) => a.id - b.id);
      }),
    markSent: (id, instanceId, now) => run(() => change(q.sent(now), q.mine(id, instanceId)) > 0),
    markRetry: (id, instanceId, error, nextAttemptAt) =>
      run(() => change(q.retry(error, nextAttemptAt), q.mine(id, instanceId)) > 0),
    markFailed: (id, instanceId, error, now) =>
      run(() => change(q.failed(error, now), q.mine(id, instanceId)) > 0),
    renew: (ids, instanceId, until) =>
      run(() =>
        ids.length === 0 ? 0 : change({ claimedUntil: until }, q.renewable(ids, instanceId)),
      ),
    release: (instanceId, channel) => run(() => change(q.released, q.heldBy(instanceId, channel))),
    backlog: () =>
      run(
        () =>
          db
            .select({
              channel: outbox.channel,
              pending: count(),
              oldestCreatedAt: min(outbox.createdAt),
            })
            .from(outbox)
            .where(q.unsent())
            .groupBy(outbox.channel)
            .all() as OutboxBacklog[],
      ),
    list: () => run(() => db.select().from(outbox).orderBy(asc(outbox.id)).all()),
  };
}
