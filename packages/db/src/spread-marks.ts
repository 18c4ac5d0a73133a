import { asc, sql } from "drizzle-orm";
import type { Database } from "./connection.ts";
import { spreadMarks } from "./schema/index.ts";
import type { SpreadMark } from "./store/store.ts";

export function listSpreadMarks(db: Database): SpreadMark[] {
  return db.select().from(spreadMarks).orderBy(asc(spreadMarks.symbol)).all();
}

/** An older mark never overwrites a newer one: a late writer cannot rewind the engine's state. */
export function saveSpreadMarks(db: Database, marks: readonly SpreadMark[]): void {
  if (marks.length === 0) return;
  db.insert(spreadMarks)
    .values([...marks])
    .onConflictDoUpdate({
      target: spreadMarks.symbol,
      set: { spread: sql`excluded.spread`, at: sql`excluded.at` },
      setWhere: sql`excluded.at >= ${spreadMarks.at}`,
    })
    .run();
}
