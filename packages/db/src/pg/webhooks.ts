import { eq } from "drizzle-orm";
import type { WebhookStore } from "../store/store.ts";
import type { PgDb } from "./connection.ts";
import { userWebhooks } from "./schema/index.ts";

export function pgWebhooks(db: PgDb): WebhookStore {
  return {
    async get(userId) {
      const [row] = await db.select().from(userWebhooks).where(eq(userWebhooks.userId, userId));
      return row;
    },
    async save(userId, url, secret, now) {
      const [row] = await db
        .insert(userWebhooks)
        .values({ userId, url, secret, updatedAt: now })
        .onConflictDoUpdate({ target: userWebhooks.userId, set: { url, secret, updatedAt: now } })
        .returning();
      if (!row) throw new Error("saving the webhook returned no row");
      return row;
    },
    async delete(userId) {
      const rows = await db
        .delete(userWebhooks)
        .where(eq(userWebhooks.userId, userId))
        .returning({ userId: userWebhooks.userId });
      return rows.length > 0;
    },
  };
}
