import { eq } from "drizzle-orm";
import { setBefore, staleUpsert } from "../store/queries.ts";
import type { KeyValueStore } from "../store/store.ts";
import { changed } from "./connection.ts";
import { keyValues } from "./schema.ts";
import type { Sqlite } from "./store.ts";

export function sqliteKeyValues({ db, run }: Sqlite): KeyValueStore {
  return {
    get: <T>(key: string) =>
      run(() => {
        const row = db.select().from(keyValues).where(eq(keyValues.key, key)).get();
        return row && (JSON.parse(row.value) as T);
      }),
    set: (key, value, now) =>
      run(() => {
        const set = { value: JSON.stringify(value), updatedAt: now };
        db.insert(keyValues)
          .values({ key, ...set })
          .onConflictDoUpdate({ target: keyValues.key, set })
          .run();
      }),
    setIfStale: (key, value, now, staleBefore) =>
      run(() => {
        const set = { value: JSON.stringify(value), updatedAt: now };
        const upsert = db.insert(keyValues).values({ key, ...set });
        return changed(upsert.onConflictDoUpdate(staleUpsert(keyValues, set, staleBefore))) > 0;
      }),
    delete: (key) => run(() => changed(db.delete(keyValues).where(eq(keyValues.key, key))) > 0),
    deleteSetBefore: (prefix, before) =>
      run(() => changed(db.delete(keyValues).where(setBefore(keyValues, prefix, before)))),
  };
}
