import { eq } from "drizzle-orm";
import type { TelegramLinkStore } from "../store/store.ts";
import type { PgDb } from "./connection.ts";
import { telegramLinks } from "./schema/index.ts";

export function pgTelegramLinks(db: PgDb): TelegramLinkStore {
  return {
    async find(userId) {
      const [link] = await db.select().from(telegramLinks).where(eq(telegramLinks.userId, userId));
      return link;
    },
    async save(userId, chatId, now) {
      await db
        .insert(telegramLinks)
        .values({ userId, chatId, connectedAt: now })
        .onConflictDoUpdate({ target: telegramLinks.userId, set: { chatId, connectedAt: now } });
    },
    async delete(userId) {
      const rows = await db
        .delete(telegramLinks)
        .where(eq(telegramLinks.userId, userId))
        .returning({ id: telegramLinks.userId });
      return rows.length > 0;
    },
  };
}
