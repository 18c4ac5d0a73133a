import { asc } from "drizzle-orm";
import { markUpsert } from "../store/queries.ts";
import { latestMarks } from "../store/rules.ts";
import type { SpreadMarkStore } from "../store/store.ts";
import type { SpreadMark } from "../store/types.ts";
import type { PgDb } from "./connection.ts";
import { spreadMarks } from "./schema.ts";

/** An older mark never overwrites a newer one: a late writer cannot rewind the engine's state. */
export async function saveMarks(db: PgDb, marks: readonly SpreadMark[]): Promise<void> {
  const latest = latestMarks(marks);
  if (latest.length > 0)
    await db.insert(spreadMarks).values(latest).onConflictDoUpdate(markUpsert(spreadMarks));
}

export function pgSpreadMarks(db: PgDb): SpreadMarkStore {
  return {
    list: () => db.select().from(spreadMarks).orderBy(asc(spreadMarks.symbol)),
    save: (marks) => saveMarks(db, marks),
  };
}
