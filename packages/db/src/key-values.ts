import { and, eq, lt } from "drizzle-orm";
import type { Database } from "./connection.ts";
import { startsWith } from "./key-prefix.ts";
import { keyValues } from "./schema/index.ts";

export function getKeyValue(db: Database, key: string): unknown {
  const row = db.select().from(keyValues).where(eq(keyValues.key, key)).get();
  return row && (JSON.parse(row.value) as unknown);
}

export function setKeyValue(db: Database, key: string, value: unknown, now: number): void {
  const json = JSON.stringify(value);
  db.insert(keyValues)
    .values({ key, value: json, updatedAt: now })
    .onConflictDoUpdate({ target: keyValues.key, set: { value: json, updatedAt: now } })
    .run();
}

export function deleteKeyValue(db: Database, key: string): boolean {
  return db.delete(keyValues).where(eq(keyValues.key, key)).run().changes > 0;
}

export function deleteKeyValuesSetBefore(db: Database, prefix: string, before: number): number {
  return db
    .delete(keyValues)
    .where(and(startsWith(keyValues.key, prefix), lt(keyValues.updatedAt, before)))
    .run().changes;
}
