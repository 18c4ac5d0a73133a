import { asc, count, eq, sql } from "drizzle-orm";
import { instrumentRow, storedInstrument } from "../store/instrument-rows.ts";
import type { InstrumentStore } from "../store/store.ts";
import { changed, type PgDb } from "./connection.ts";
import { instruments } from "./schema.ts";

export function pgInstruments(db: PgDb): InstrumentStore {
  const countAll = async (on: PgDb) =>
    (await on.select({ n: count() }).from(instruments))[0]?.n ?? 0;
  return {
    list: async () =>
      (
        await db
          .select()
          .from(instruments)
          .orderBy(asc(instruments.createdAt), asc(instruments.key))
      ).map(storedInstrument),
    add: (spec, by, at, maxRows) =>
      db.transaction(async (tx) => {
        // Adds queue here (reads go on), so two admins at the limit cannot both get the last place.
        await tx.execute(sql`LOCK TABLE ${instruments} IN EXCLUSIVE MODE`);
        const [known] = await tx
          .select({ key: instruments.key })
          .from(instruments)
          .where(eq(instruments.key, spec.key));
        if (known) return "exists" as const;
        if (maxRows !== undefined && (await countAll(tx)) >= maxRows) return "full" as const;
        await tx.insert(instruments).values(instrumentRow(spec, by, at));
        return "added" as const;
      }),
    remove: async (key) =>
      (await changed(db.delete(instruments).where(eq(instruments.key, key)))) > 0,
    count: () => countAll(db),
  };
}
