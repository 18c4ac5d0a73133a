import { eq } from "drizzle-orm";
import type { TelegramLinkStore } from "../store/store.ts";
import { changed } from "./connection.ts";
import { telegramLinks } from "./schema.ts";
import type { Sqlite } from "./store.ts";

export function sqliteTelegramLinks({ db, run }: Sqlite): TelegramLinkStore {
  const theirs = (userId: number) => eq(telegramLinks.userId, userId);
  return {
    find: (userId) => run(() => db.select().from(telegramLinks).where(theirs(userId)).get()),
    save: (userId, chatId, now) =>
      run(() => {
        const set = { chatId, connectedAt: now };
        db.insert(telegramLinks)
          .values({ userId, ...set })
          .onConflictDoUpdate({ target: telegramLinks.userId, set })
          .run();
      }),
    delete: (userId) => run(() => changed(db.delete(telegramLinks).where(theirs(userId))) > 0),
  };
}
