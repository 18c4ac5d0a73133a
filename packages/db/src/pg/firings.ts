import { asc, desc, inArray } from "drizzle-orm";
import { firingPageFilter, outboxStates } from "../store/queries.ts";
import { toFiringEntries } from "../store/rules.ts";
import type { FiringStore } from "../store/store.ts";
import type { PgDb } from "./connection.ts";
import { alertFirings, outbox } from "./schema.ts";

/** A user's History page: the firing rows, then their outbox rows in one more round trip. */
export function pgFirings(db: PgDb): FiringStore {
  return {
    async list(userId, page) {
      const rows = await db
        .select()
        .from(alertFirings)
        .where(firingPageFilter(alertFirings, userId, page))
        .orderBy(desc(alertFirings.firedAt), desc(alertFirings.id))
        .limit(page.limit);
      if (rows.length === 0) return [];
      const ofPage = inArray(
        outbox.firingId,
        rows.map((r) => r.id),
      );
      const states = db.select(outboxStates(outbox)).from(outbox).where(ofPage);
      return toFiringEntries(rows, await states.orderBy(asc(outbox.id)));
    },
  };
}
