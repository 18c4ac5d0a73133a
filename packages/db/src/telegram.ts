import { and, asc, eq, isNull, lte, sql } from "drizzle-orm";
import type { Database } from "./connection.ts";
import { telegramLinks, telegramOutbox } from "./schema/index.ts";

export type TelegramLink = typeof telegramLinks.$inferSelect;
export type OutboxMessage = typeof telegramOutbox.$inferSelect;

export function findTelegramLink(db: Database, userId: number): TelegramLink | undefined {
  return db.select().from(telegramLinks).where(eq(telegramLinks.userId, userId)).get();
}

export function saveTelegramLink(db: Database, userId: number, chatId: string, now: number): void {
  db.insert(telegramLinks)
    .values({ userId, chatId, connectedAt: now })
    .onConflictDoUpdate({ target: telegramLinks.userId, set: { chatId, connectedAt: now } })
    .run();
}

export function deleteTelegramLink(db: Database, userId: number): boolean {
  return db.delete(telegramLinks).where(eq(telegramLinks.userId, userId)).run().changes > 0;
}

/** Messages due for a (re)try, oldest first. */
export function dueOutboxMessages(db: Database, now: number, limit: number): OutboxMessage[] {
  return db
    .select()
    .from(telegramOutbox)
    .where(
      and(
        isNull(telegramOutbox.sentAt),
        isNull(telegramOutbox.failedAt),
        lte(telegramOutbox.nextAttemptAt, now),
      ),
    )
    .orderBy(asc(telegramOutbox.id))
    .limit(limit)
    .all();
}

/**
 * Its own statement, so its own transaction: called right after Telegram accepted the message
 * and before the next one is sent, it keeps the resend window to the one message in flight.
 */
export function markOutboxSent(db: Database, id: number, now: number): void {
  db.update(telegramOutbox).set({ sentAt: now }).where(eq(telegramOutbox.id, id)).run();
}

/** One more failed attempt, and when to try again: a single statement, so no count is lost. */
export function markOutboxRetry(
  db: Database,
  id: number,
  error: string,
  nextAttemptAt: number,
): void {
  db.update(telegramOutbox)
    .set({ attempts: sql`${telegramOutbox.attempts} + 1`, lastError: error, nextAttemptAt })
    .where(eq(telegramOutbox.id, id))
    .run();
}

export function markOutboxFailed(db: Database, id: number, error: string, now: number): void {
  db.update(telegramOutbox)
    .set({ failedAt: now, lastError: error })
    .where(eq(telegramOutbox.id, id))
    .run();
}

export function listOutbox(db: Database): OutboxMessage[] {
  return db.select().from(telegramOutbox).orderBy(asc(telegramOutbox.id)).all();
}
