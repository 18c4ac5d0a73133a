import { eq } from "drizzle-orm";
import type { TelegramLinkStore } from "../store/store.ts";
import { changed, type PgDb } from "./connection.ts";
import { telegramLinks } from "./schema.ts";

export function pgTelegramLinks(db: PgDb): TelegramLinkStore {
  const theirs = (userId: number) => eq(telegramLinks.userId, userId);
  return {
    async find(userId) {
      const [link] = await db.select().from(telegramLinks).where(theirs(userId));
      return link;
    },
    async save(userId, chatId, now) {
      const set = { chatId, connectedAt: now };
      await db
        .insert(telegramLinks)
        .values({ userId, ...set })
        .onConflictDoUpdate({ target: telegramLinks.userId, set });
    },
    delete: async (userId) => (await changed(db.delete(telegramLinks).where(theirs(userId)))) > 0,
  };
}
