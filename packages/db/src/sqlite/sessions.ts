import { eq, lt, type SQL } from "drizzle-orm";
import type { SessionEndReason } from "../store/enums.ts";
import { sessionsOf } from "../store/queries.ts";
import type { SessionStore } from "../store/store.ts";
import { changed, type Database } from "./connection.ts";
import { sessionEnds, sessions } from "./schema.ts";
import type { Sqlite } from "./store.ts";

/**
 * Deletes the sessions matching `where` and leaves a tombstone saying why, in one transaction;
 * returns how many.
 */
export function endSessionsWhere(
  db: Database,
  where: SQL | undefined,
  reason: SessionEndReason,
  now: number,
): number {
  return db.transaction((tx) => {
    const ended = tx
      .delete(sessions)
      .where(where)
      .returning({ id: sessions.id, userId: sessions.userId })
      .all();
    for (const { id, userId } of ended) {
      tx.insert(sessionEnds)
        .values({ sessionId: id, userId, reason, endedAt: now })
        .onConflictDoUpdate({ target: sessionEnds.sessionId, set: { reason, endedAt: now } })
        .run();
    }
    return ended.length;
  });
}

export function sqliteSessions({ db, run }: Sqlite): SessionStore {
  const end = (where: SQL | undefined, reason: SessionEndReason, now: number) =>
    run(() => endSessionsWhere(db, where, reason, now));
  return {
    create: (userId, id, now) =>
      run(() =>
        db.transaction(() => {
          const ended = endSessionsWhere(db, sessionsOf(sessions, userId), "replaced", now);
          db.insert(sessions).values({ id, userId, createdAt: now, lastSeenAt: now }).run();
          return ended;
        }),
      ),
    find: (id) => run(() => db.select().from(sessions).where(eq(sessions.id, id)).get()),
    findEnd: (id) =>
      run(() => db.select().from(sessionEnds).where(eq(sessionEnds.sessionId, id)).get()),
    touch: (id, now) =>
      run(
        () => changed(db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id))) > 0,
      ),
    end: async (id, reason, now) => (await end(eq(sessions.id, id), reason, now)) > 0,
    endAllOfUser: (userId, reason, now, keepId) =>
      end(sessionsOf(sessions, userId, keepId), reason, now),
    endIdleSince: (cutoff, now) => end(lt(sessions.lastSeenAt, cutoff), "expired", now),
    pruneEnds: (cutoff) =>
      run(() => changed(db.delete(sessionEnds).where(lt(sessionEnds.endedAt, cutoff)))),
  };
}
