import type { AlertMetric } from "@spreadwatch/core";
import { and, asc, type Column, desc, eq, inArray, lt } from "drizzle-orm";
import type { Alert } from "./alerts.ts";
import type { Database } from "./connection.ts";
import { alertFirings, telegramOutbox } from "./schema/index.ts";

/** Where one channel's message of a firing stands. */
export interface FiringChannel {
  channel: string;
  state: "pending" | "sent" | "failed";
  /** Failed tries so far, plus the last one once it was sent or failed for good. */
  attempts: number;
}

/** One History entry: a firing (server or browser) or a crossing held back. */
export interface FiringEntry {
  id: number;
  /** Null once the alert was deleted: its history stays. */
  alertId: number | null;
  symbol: string;
  metric: string;
  value: number;
  threshold: number;
  direction: string;
  firedAt: number;
  state: string;
  source: string;
  note: string | null;
  channels: FiringChannel[];
}

export interface FiringPage {
  limit: number;
  /** firedAt cursor, exclusive: entries strictly older than this. */
  before?: number | undefined;
  /**
   * Instead of `before`: the rest of a group that shares one firedAt, the entries at exactly
   * `firedAt` with an id below `belowId` (a page's last entry), in the same order.
   */
  sameTime?: { firedAt: number; belowId: number } | undefined;
}

/** What a browser says it fired on; the alert supplies symbol and threshold. */
export interface BrowserFiring {
  value: number;
  metric: AlertMetric;
  direction: "above" | "below";
}

/** A stored firing row; the same shape on both engines. */
export type FiringRow = typeof alertFirings.$inferSelect;
/** What the History needs of an outbox row. */
export type OutboxState = Pick<
  typeof telegramOutbox.$inferSelect,
  "firingId" | "channel" | "attempts" | "sentAt" | "failedAt"
>;

/** An outbox row as a History channel: a sent or given-up row counts its last try too. */
export function channelOf(row: OutboxState): FiringChannel {
  if (row.sentAt !== null)
    return { channel: row.channel, state: "sent", attempts: row.attempts + 1 };
  if (row.failedAt !== null)
    return { channel: row.channel, state: "failed", attempts: row.attempts + 1 };
  return { channel: row.channel, state: "pending", attempts: row.attempts };
}

/**
 * Firing rows with their channels: a browser firing was delivered by the browser itself (its
 * sound), a held entry has none, a server firing has one per outbox row (in row order).
 */
export function toFiringEntries(
  rows: readonly FiringRow[],
  outbox: readonly OutboxState[],
): FiringEntry[] {
  const byFiring = new Map<number, FiringChannel[]>();
  for (const row of outbox) {
    if (row.firingId === null) continue;
    const list = byFiring.get(row.firingId) ?? [];
    list.push(channelOf(row));
    byFiring.set(row.firingId, list);
  }
  return rows.map((row) => ({
    id: row.id,
    alertId: row.alertId,
    symbol: row.symbol,
    metric: row.metric,
    value: row.value,
    threshold: row.threshold,
    direction: row.direction,
    firedAt: row.firedAt,
    state: row.state,
    source: row.source,
    note: row.note,
    channels:
      row.source === "browser"
        ? [{ channel: "browser", state: "sent", attempts: 1 }]
        : (byFiring.get(row.id) ?? []),
  }));
}

/**
 * Which of a user's History rows a page reads (`before`, or the rest of a `sameTime` group).
 * Column by column, so the SQLite and PostgreSQL tables share it.
 */
export function firingPageFilter(
  columns: { userId: Column; firedAt: Column; id: Column },
  userId: number,
  page: FiringPage,
) {
  const owner = eq(columns.userId, userId);
  const { sameTime, before } = page;
  if (sameTime) {
    return and(owner, eq(columns.firedAt, sameTime.firedAt), lt(columns.id, sameTime.belowId));
  }
  return before === undefined ? owner : and(owner, lt(columns.firedAt, before));
}

/** A user's History page (SQLite): newest first, ties by id, strictly before the cursor. */
export function listFirings(db: Database, userId: number, page: FiringPage): FiringEntry[] {
  const rows = db
    .select()
    .from(alertFirings)
    .where(firingPageFilter(alertFirings, userId, page))
    .orderBy(desc(alertFirings.firedAt), desc(alertFirings.id))
    .limit(page.limit)
    .all();
  if (rows.length === 0) return [];
  const outbox = db
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
    .orderBy(asc(telegramOutbox.id))
    .all();
  return toFiringEntries(rows, outbox);
}

/** The History row of a browser firing of `alert` at `now` (the server's clock). */
export function browserFiringRow(alert: Alert, firing: BrowserFiring, now: number) {
  return {
    userId: alert.userId,
    alertId: alert.id,
    symbol: alert.commodityType,
    metric: firing.metric,
    value: firing.value,
    threshold: alert.threshold,
    direction: firing.direction,
    state: "fired",
    source: "browser",
    note: null,
    firedAt: now,
    createdAt: now,
  } satisfies typeof alertFirings.$inferInsert;
}

/** Writes a browser firing's History row (SQLite; inside the caller's transaction). */
export function insertBrowserFiring(
  db: Database,
  alert: Alert,
  firing: BrowserFiring,
  now: number,
): void {
  db.insert(alertFirings)
    .values(browserFiringRow(alert, firing, now))
    .run();
}
