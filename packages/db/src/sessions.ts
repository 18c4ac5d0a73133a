import { and, eq, lt, ne, type SQL } from "drizzle-orm";
import type { Database } from "./connection.ts";
import { sessionEnds, sessions } from "./schema/index.ts";

export interface Session {
  id: string;
  userId: number;
  createdAt: number;
  lastSeenAt: number;
}

export type SessionEndReason = (typeof sessionEnds.$inferSelect)["reason"];

export interface SessionEnd {
  sessionId: string;
  userId: number;
  reason: SessionEndReason;
  endedAt: number;
}

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/** Deletes the sessions matching `where` and leaves a tombstone saying why; returns how many. */
function endSessionsWhere(
  tx: Transaction,
  where: SQL | undefined,
  reason: SessionEndReason,
  now: number,
): number {
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
}

/**
 * Starts a session and ends every other session of that user (one active session per user).
 * Returns how many sessions it ended, so the caller can report `another_session_logged_out`.
 */
export function createSession(db: Database, userId: number, id: string, now: number): number {
  return db.transaction((tx) => {
    const ended = endSessionsWhere(tx, eq(sessions.userId, userId), "replaced", now);
    tx.insert(sessions).values({ id, userId, createdAt: now, lastSeenAt: now }).run();
    return ended;
  });
}

export function findSession(db: Database, id: string): Session | undefined {
  return db.select().from(sessions).where(eq(sessions.id, id)).get();
}

/** Why a session that no longer exists was ended, if it is still remembered. */
export function findSessionEnd(db: Database, id: string): SessionEnd | undefined {
  return db.select().from(sessionEnds).where(eq(sessionEnds.sessionId, id)).get();
}

/** Returns whether the session still exists. */
export function touchSession(db: Database, id: string, now: number): boolean {
  return db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id)).run().changes > 0;
}

export function deleteSession(
  db: Database,
  id: string,
  reason: SessionEndReason = "logged_out",
  now = Date.now(),
): boolean {
  return db.transaction((tx) => endSessionsWhere(tx, eq(sessions.id, id), reason, now)) > 0;
}

/** Ends every session of a user, except `keepId` if given; returns how many were ended. */
export function deleteUserSessions(
  db: Database,
  userId: number,
  reason: SessionEndReason = "logged_out",
  now = Date.now(),
  keepId?: string,
): number {
  const where = keepId
    ? and(eq(sessions.userId, userId), ne(sessions.id, keepId))
    : eq(sessions.userId, userId);
  return db.transaction((tx) => endSessionsWhere(tx, where, reason, now));
}

/** Ends sessions not seen since `cutoff` (epoch ms, exclusive); returns how many. */
export function deleteSessionsIdleSince(db: Database, cutoff: number, now = Date.now()): number {
  return db.transaction((tx) =>
    endSessionsWhere(tx, lt(sessions.lastSeenAt, cutoff), "expired", now),
  );
}

/** Forgets why sessions ended before `cutoff`; a cookie that old is treated as simply signed out. */
export function pruneSessionEnds(db: Database, cutoff: number): number {
  return db.delete(sessionEnds).where(lt(sessionEnds.endedAt, cutoff)).run().changes;
}
