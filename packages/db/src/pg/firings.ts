import { asc, desc, inArray } from "drizzle-orm";
import {
  type FiringEntry,
  type FiringPage,
  firingPageFilter,
  toFiringEntries,
} from "../firings.ts";
import type { FiringStore } from "../store/store.ts";
import type { PgDb } from "./connection.ts";
import { alertFirings, telegramOutbox } from "./schema/index.ts";

/** A user's History page: the firing rows, then their outbox rows in one more round trip. */
async function listFirings(db: PgDb, userId: number, page: FiringPage): Promise<FiringEntry[]> {
  const rows = await db
    .select()
    .from(alertFirings)
    .where(firingPageFilter(alertFirings, userId, page))
    .orderBy(desc(alertFirings.firedAt), desc(alertFirings.id))
    .limit(page.limit);
  if (rows.length === 0) return [];
  const outbox = await db
    .select({
      firingId: telegramOutbox.firingId,
      channel: telegramOutbox.channel,
      attempts: telegramOutbox.attempts,
      sentAt: telegramOutbox.sentAt,
      failedAt: telegramOutbox.failedAt,
    })
    .from(telegramOutbox)
    .where(
      inArray(
        telegramOutbox.firingId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(telegramOutbox.id));
  return toFiringEntries(rows, outbox);
}

export function pgFirings(db: PgDb): FiringStore {
  return { list: (userId, page) => listFirings(db, userId, page) };
}
