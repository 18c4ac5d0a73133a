import { eq } from "drizzle-orm";
import type { WebhookStore } from "../store/store.ts";
import { changed, type PgDb } from "./connection.ts";
import { userWebhooks } from "./schema.ts";

export function pgWebhooks(db: PgDb): WebhookStore {
  const theirs = (userId: number) => eq(userWebhooks.userId, userId);
  return {
    async get(userId) {
      const [row] = await db.select().from(userWebhooks).where(theirs(userId));
      return row;
    },
    async save(userId, url, secret, now) {
      const set = { url, secret, updatedAt: now };
      const [row] = await db
        .insert(userWebhooks)
        .values({ userId, ...set })
        .onConflictDoUpdate({ target: userWebhooks.userId, set })
        .returning();
      if (!row) throw new Error("saving the webhook returned no row");
      return row;
    },
    delete: async (userId) => (await changed(db.delete(userWebhooks).where(theirs(userId)))) > 0,
  };
}
