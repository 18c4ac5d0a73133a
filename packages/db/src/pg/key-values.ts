import { eq } from "drizzle-orm";
import { setBefore } from "../store/queries.ts";
import type { KeyValueStore } from "../store/store.ts";
import { changed, type PgDb } from "./connection.ts";
import { keyValues } from "./schema.ts";

export function pgKeyValues(db: PgDb): KeyValueStore {
  return {
    async get<T>(key: string) {
      const [row] = await db.select().from(keyValues).where(eq(keyValues.key, key));
      return row && (JSON.parse(row.value) as T);
    },
    async set(key, value, now) {
      const set = { value: JSON.stringify(value), updatedAt: now };
      await db
        .insert(keyValues)
        .values({ key, ...set })
        .onConflictDoUpdate({ target: keyValues.key, set });
    },
    delete: async (key) => (await changed(db.delete(keyValues).where(eq(keyValues.key, key)))) > 0,
    deleteSetBefore: (prefix, before) =>
      changed(db.delete(keyValues).where(setBefore(keyValues, prefix, before))),
  };
}
