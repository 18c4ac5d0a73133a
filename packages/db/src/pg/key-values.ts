import { eq } from "drizzle-orm";
import { setBefore, staleUpsert } from "../store/queries.ts";
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
    async setIfStale(key, value, now, staleBefore) {
      const set = { value: JSON.stringify(value), updatedAt: now };
      // ON CONFLICT re-reads a row another transaction just wrote, so a second claimer sees it fresh.
      const claim = db
        .insert(keyValues)
        .values({ key, ...set })
        .onConflictDoUpdate(staleUpsert(keyValues, set, staleBefore));
      return (await changed(claim)) > 0;
    },
    delete: async (key) => (await changed(db.delete(keyValues).where(eq(keyValues.key, key)))) > 0,
    deleteSetBefore: (prefix, before) =>
      changed(db.delete(keyValues).where(setBefore(keyValues, prefix, before))),
  };
}
