import { eq } from "drizzle-orm";
import type { WebhookStore } from "../store/store.ts";
import { changed } from "./connection.ts";
import { userWebhooks } from "./schema.ts";
import type { Sqlite } from "./store.ts";

export function sqliteWebhooks({ db, run }: Sqlite): WebhookStore {
  const theirs = (userId: number) => eq(userWebhooks.userId, userId);
  return {
    get: (userId) => run(() => db.select().from(userWebhooks).where(theirs(userId)).get()),
    save: (userId, url, secret, now) =>
      run(() => {
        const set = { url, secret, updatedAt: now };
        return db
          .insert(userWebhooks)
          .values({ userId, ...set })
          .onConflictDoUpdate({ target: userWebhooks.userId, set })
          .returning()
          .get();
      }),
    delete: (userId) => run(() => changed(db.delete(userWebhooks).where(theirs(userId))) > 0),
  };
}
