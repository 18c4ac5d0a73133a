import { asc, inArray, min, type SQL } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
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
import { outbox } from "./schema.ts";
import type { Sqlite } from "./store.ts";

/**
 * SQLite's outbox claiming: one writer at a time, so a single UPDATE … WHERE id IN (SELECT …)
 * is already exclusive; the lease columns are kept as on PostgreSQL so both behave the same.
 */
export function sqliteOutbox({ db, run }: Sqlite): OutboxStore {
  const change = (set: SQLiteUpdateSetSource<typeof outbox>, where: SQL | undefined) =>
    db.update(outbox).set(set).where(where).run().changes;
  return {
    claim: (claim) =>
      run(() => {
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
          .limit(claim.limit);
        const claimed = db.update(outbox).set(claimedBy(claim)).where(inArray(outbox.id, due));
        return claimed
          .returning()
          .all()
          .sort((a, b) => a.id - b.id);
      }),
    markSent: (id, instanceId, now) =>
      run(() => change(sentChange(now), mine(outbox, id, instanceId)) > 0),
    markRetry: (id, instanceId, error, nextAttemptAt) =>
      run(
        () => change(retryChange(outbox, error, nextAttemptAt), mine(outbox, id, instanceId)) > 0,
      ),
    markFailed: (id, instanceId, error, now) =>
      run(() => change(failedChange(error, now), mine(outbox, id, instanceId)) > 0),
    renew: (ids, instanceId, until) =>
      run(() =>
        ids.length === 0 ? 0 : change({ claimedUntil: until }, renewable(outbox, ids, instanceId)),
      ),
    release: (instanceId, channel) =>
      run(() => change(RELEASED, heldBy(outbox, instanceId, channel))),
    list: () => run(() => db.select().from(outbox).orderBy(asc(outbox.id)).all()),
  };
}
