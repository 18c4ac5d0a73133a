import { eq, lt, type SQL, sql } from "drizzle-orm";
import type { SessionEndReason } from "../store/enums.ts";
import { sessionsOf } from "../store/queries.ts";
import type { SessionStore } from "../store/store.ts";
import { changed, type PgDb } from "./connection.ts";
import { sessionEnds, sessions, users } from "./schema.ts";

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
  const end = (where: SQL | undefined, reason: SessionEndReason, now: number) =>
    db.transaction((tx) => endSessionsWhere(tx, where, reason, now));
  return {
    create: (userId, id, now) =>
      db.transaction(async (tx) => {
        // The user's row lock queues concurrent logins of one user (on any instance), so the
        // later one sees and ends the earlier one's session: never two active sessions.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
        const ended = await endSessionsWhere(tx, sessionsOf(sessions, userId), "replaced", now);
        await tx.insert(sessions).values({ id, userId, createdAt: now, lastSeenAt: now });
        return ended;
      }),
    async find(id) {
      const [session] = await db.select().from(sessions).where(eq(sessions.id, id));
      return session;
    },
    async findEnd(id) {
      const [ended] = await db.select().from(sessionEnds).where(eq(sessionEnds.sessionId, id));
      return ended;
    },
    touch: async (id, now) =>
      (await changed(db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id)))) > 0,
    end: async (id, reason, now) => (await end(eq(sessions.id, id), reason, now)) > 0,
    endAllOfUser: (userId, reason, now, keepId) =>
      end(sessionsOf(sessions, userId, keepId), reason, now),
    endIdleSince: (cutoff, now) => end(lt(sessions.lastSeenAt, cutoff), "expired", now),
    pruneEnds: (cutoff) => changed(db.delete(sessionEnds).where(lt(sessionEnds.endedAt, cutoff))),
  };
}
