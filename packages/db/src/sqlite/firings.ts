import { asc, desc, inArray } from "drizzle-orm";
import { firingPageFilter, outboxStates } from "../store/queries.ts";
import { toFiringEntries } from "../store/rules.ts";
import type { FiringStore } from "../store/store.ts";
import { alertFirings, outbox } from "./schema.ts";
import type { Sqlite } from "./store.ts";

/** A user's History page: the firing rows, then their outbox rows. */
export function sqliteFirings({ db, run }: Sqlite): FiringStore {
  return {
    list: (userId, page) =>
      run(() => {
        const rows = db
          .select()
          .from(alertFirings)
          .where(firingPageFilter(alertFirings, userId, page))
          .orderBy(desc(alertFirings.firedAt), desc(alertFirings.id))
          .limit(page.limit)
          .all();
        if (rows.length === 0) return [];
        const ids = rows.map((r) => r.id);
        const states = db
          .select(outboxStates(outbox))
          .from(outbox)
          .where(inArray(outbox.firingId, ids))
          .orderBy(asc(outbox.id))
          .all();
        return toFiringEntries(rows, states);
      }),
  };
}
