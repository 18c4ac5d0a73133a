import { and, eq, lt, ne, type SQL, sql } from "drizzle-orm";
import type { SessionEndReason } from "../sessions.ts";
import type { SessionStore } from "../store/store.ts";
import type { PgDb } from "./connection.ts";
import { sessionEnds, sessions, users } from "./schema/index.ts";

/** Deletes the matching sessions and leaves a tombstone saying why; returns how many. */
export async function endSessionsWhere(
  tx: PgDb,
  where: SQL | undefined,
  reason: SessionEndReason,
  now: number,
): Promise<number> {
  const ended = await tx
    .delete(sessions)
    .where(where)
    .returning({ id: sessions.id, userId: sessions.userId });
  if (ended.length > 0) {
    await tx
      .insert(sessionEnds)
      .values(ended.map(({ id, userId }) => ({ sessionId: id, userId, reason, endedAt: now })))
      .onConflictDoUpdate({
        target: sessionEnds.sessionId,
        set: { reason: sql`excluded.reason`, endedAt: sql`excluded.ended_at` },
      });
  }
  return ended.length;
}

export function pgSessions(db: PgDb): SessionStore {
  return {
    create: (userId, id, now) =>
      db.transaction(async (tx) => {
        // The user's row lock queues concurrent logins of one user (on any instance), so the
        // later one sees and ends the earlier one's session: never two active sessions.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
        const ended = await endSessionsWhere(tx, eq(sessions.userId, userId), "replaced", now);
        await tx.insert(sessions).values({ id, userId, createdAt: now, lastSeenAt: now });
        return ended;
      }),
    async find(id) {
      const [session] = await db.select().from(sessions).where(eq(sessions.id, id));
      return session;
    },
    async findEnd(id) {
      const [end] = await db.select().from(sessionEnds).where(eq(sessionEnds.sessionId, id));
      return end;
    },
    async touch(id, now) {
      const rows = await db
        .update(sessions)
        .set({ lastSeenAt: now })
        .where(eq(sessions.id, id))
        .returning({ id: sessions.id });
      return rows.length > 0;
    },
    end: async (id, reason, now) =>
      (await db.transaction((tx) => endSessionsWhere(tx, eq(sessions.id, id), reason, now))) > 0,
    endAllOfUser: (userId, reason, now, keepId) => {
      const theirs = eq(sessions.userId, userId);
      const where = keepId ? and(theirs, ne(sessions.id, keepId)) : theirs;
      return db.transaction((tx) => endSessionsWhere(tx, where, reason, now));
    },
    endIdleSince: (cutoff, now) =>
      db.transaction((tx) => endSessionsWhere(tx, lt(sessions.lastSeenAt, cutoff), "expired", now)),
    async pruneEnds(cutoff) {
      const rows = await db
        .delete(sessionEnds)
        .where(lt(sessionEnds.endedAt, cutoff))
        .returning({ id: sessionEnds.sessionId });
      return rows.length;
    },
  };
}
