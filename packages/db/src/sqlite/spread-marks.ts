import { asc } from "drizzle-orm";
import { markUpsert } from "../store/queries.ts";
import { latestMarks } from "../store/rules.ts";
import type { SpreadMarkStore } from "../store/store.ts";
import type { SpreadMark } from "../store/types.ts";
import type { Database } from "./connection.ts";
import { spreadMarks } from "./schema.ts";
import type { Sqlite } from "./store.ts";

/** An older mark never overwrites a newer one: a late writer cannot rewind the engine's state. */
export function saveMarks(db: Database, marks: readonly SpreadMark[]): void {
  const latest = latestMarks(marks);
  if (latest.length > 0)
    db.insert(spreadMarks).values(latest).onConflictDoUpdate(markUpsert(spreadMarks)).run();
}

export function sqliteSpreadMarks({ db, run }: Sqlite): SpreadMarkStore {
  return {
    list: () => run(() => db.select().from(spreadMarks).orderBy(asc(spreadMarks.symbol)).all()),
    save: (marks) => run(() => saveMarks(db, marks)),
  };
}
