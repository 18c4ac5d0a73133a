import { asc, sql } from "drizzle-orm";
import type { SpreadMark, SpreadMarkStore } from "../store/store.ts";
import type { PgDb } from "./connection.ts";
import { spreadMarks } from "./schema/index.ts";

/** An older mark never overwrites a newer one: a late writer cannot rewind the engine's state. */
export async function saveMarks(db: PgDb, marks: readonly SpreadMark[]): Promise<void> {
  // One row per symbol per statement: PostgreSQL refuses to upsert a row twice in one INSERT.
  const latest = new Map<string, SpreadMark>();
  for (const mark of marks) {
    const seen = latest.get(mark.symbol);
    if (!seen || mark.at >= seen.at) latest.set(mark.symbol, mark);
  }
  if (latest.size === 0) return;
  await db
    .insert(spreadMarks)
    .values([...latest.values()])
    .onConflictDoUpdate({
      target: spreadMarks.symbol,
      set: { spread: sql`excluded.spread`, at: sql`excluded.at` },
      setWhere: sql`excluded.at >= ${spreadMarks.at}`,
    });
}

export function pgSpreadMarks(db: PgDb): SpreadMarkStore {
  return {
    list: () => db.select().from(spreadMarks).orderBy(asc(spreadMarks.symbol)),
    save: (marks) => saveMarks(db, marks),
  };
}
