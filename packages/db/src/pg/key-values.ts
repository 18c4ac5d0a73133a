import { and, eq, lt } from "drizzle-orm";
import { startsWith } from "../key-prefix.ts";
import type { KeyValueStore } from "../store/store.ts";
import type { PgDb } from "./connection.ts";
import { keyValues } from "./schema/index.ts";

export function pgKeyValues(db: PgDb): KeyValueStore {
  return {
    async get<T>(key: string) {
      const [row] = await db.select().from(keyValues).where(eq(keyValues.key, key));
      return row && (JSON.parse(row.value) as T);
    },
    async set(key, value, now) {
      const json = JSON.stringify(value);
      await db
        .insert(keyValues)
        .values({ key, value: json, updatedAt: now })
        .onConflictDoUpdate({ target: keyValues.key, set: { value: json, updatedAt: now } });
    },
    async delete(key) {
      const rows = await db
        .delete(keyValues)
        .where(eq(keyValues.key, key))
        .returning({ key: keyValues.key });
      return rows.length > 0;
    },
    async deleteSetBefore(prefix, before) {
      const rows = await db
        .delete(keyValues)
        .where(and(startsWith(keyValues.key, prefix), lt(keyValues.updatedAt, before)))
        .returning({ key: keyValues.key });
      return rows.length;
    },
  };
}
