import { asc, count, eq } from "drizzle-orm";
import { instrumentRow, storedInstrument } from "../store/instrument-rows.ts";
import type { InstrumentStore } from "../store/store.ts";
import { changed } from "./connection.ts";
import { instruments } from "./schema.ts";
import type { Sqlite } from "./store.ts";

export function sqliteInstruments({ db, run }: Sqlite): InstrumentStore {
  const countAll = () => db.select({ n: count() }).from(instruments).get()?.n ?? 0;
  return {
    list: () =>
      run(() =>
        db
          .select()
          .from(instruments)
          .orderBy(asc(instruments.createdAt), asc(instruments.key))
          .all()
          .map(storedInstrument),
      ),
    add: (spec, by, at, maxRows) =>
      run(() =>
        // One writer at a time: the count and the insert cannot interleave with another add.
        db.transaction(() => {
          if (db.select().from(instruments).where(eq(instruments.key, spec.key)).get())
            return "exists" as const;
          if (maxRows !== undefined && countAll() >= maxRows) return "full" as const;
          db.insert(instruments)
            .values(instrumentRow(spec, by, at))
            .run();
          return "added" as const;
        }),
      ),
    remove: (key) => run(() => changed(db.delete(instruments).where(eq(instruments.key, key))) > 0),
    count: () => run(countAll),
  };
}
