import { eq } from "drizzle-orm";
import type { Database } from "./connection.ts";
import { userWebhooks } from "./schema/index.ts";

/** A user's webhook: where their alerts' webhook firings are POSTed, and the signing key. */
export type UserWebhook = typeof userWebhooks.$inferSelect;

export function findWebhook(db: Database, userId: number): UserWebhook | undefined {
  return db.select().from(userWebhooks).where(eq(userWebhooks.userId, userId)).get();
}

/** Sets or replaces the user's one webhook. */
export function saveWebhook(
  db: Database,
  userId: number,
  url: string,
  secret: string,
  now: number,
): UserWebhook {
  return db
    .insert(userWebhooks)
    .values({ userId, url, secret, updatedAt: now })
    .onConflictDoUpdate({ target: userWebhooks.userId, set: { url, secret, updatedAt: now } })
    .returning()
    .get();
}

export function deleteWebhook(db: Database, userId: number): boolean {
  return db.delete(userWebhooks).where(eq(userWebhooks.userId, userId)).run().changes > 0;
}
