import { eq, lt } from "drizzle-orm";
import type { Database } from "./connection.ts";
import { sessions } from "./schema/index.ts";

export interface Session {
  id: string;
  userId: number;
  createdAt: number;
  lastSeenAt: number;
}

/**
 * Starts a session and ends every other session of that user (one active session per user).
 * Returns how many sessions it ended, so the caller can report `another_session_logged_out`.
 */
export function createSession(db: Database, userId: number, id: string, now: number): number {
  return db.transaction((tx) => {
    const ended = tx.delete(sessions).where(eq(sessions.userId, userId)).run().changes;
    tx.insert(sessions).values({ id, userId, createdAt: now, lastSeenAt: now }).run();
    return ended;
  });
}

export function findSession(db: Database, id: string): Session | undefined {
  return db.select().from(sessions).where(eq(sessions.id, id)).get();
}

/** Returns whether the session still exists. */
export function touchSession(db: Database, id: string, now: number): boolean {
  return db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, id)).run().changes > 0;
}

export function deleteSession(db: Database, id: string): boolean {
  return db.delete(sessions).where(eq(sessions.id, id)).run().changes > 0;
}

/** Returns how many sessions were ended. */
export function deleteUserSessions(db: Database, userId: number): number {
  return db.delete(sessions).where(eq(sessions.userId, userId)).run().changes;
}

/** Ends sessions not seen since `cutoff` (epoch ms, exclusive); returns how many. */
export function deleteSessionsIdleSince(db: Database, cutoff: number): number {
  return db.delete(sessions).where(lt(sessions.lastSeenAt, cutoff)).run().changes;
}
