import type BetterSqlite3 from "better-sqlite3";
import { and, count, eq } from "drizzle-orm";
import type { Database } from "./connection.ts";
import { type BrowserFiring, insertBrowserFiring } from "./firings.ts";
import { alerts, telegramLinks, users } from "./schema/index.ts";

export type Alert = typeof alerts.$inferSelect;

/** The fields a user sets; counts and trigger times belong to the server. */
export interface AlertSettings {
  commodityType: string;
  threshold: number;
  soundId: string;
  enabled: boolean;
  telegramNotify: boolean;
  maxNotifications: number;
  /** Defaults to "spread" (the spec's alert). */
  metric?: AlertMetric;
  /** Re-arm distance after a firing, in the metric's units; null or absent: none. */
  hysteresis?: number | null;
  /** POST each server firing to the user's webhook. */
  webhookNotify?: boolean;
}

/** What an alert's threshold is compared with. */
export const ALERT_METRICS = ["spread", "zscore", "percentile"] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

export function listUserAlerts(db: Database, userId: number): Alert[] {
  return db.select().from(alerts).where(eq(alerts.userId, userId)).orderBy(alerts.id).all();
}

export function countUserAlerts(db: Database, userId: number): number {
  return db.select({ n: count() }).from(alerts).where(eq(alerts.userId, userId)).get()?.n ?? 0;
}

/** Another user's alert is "not found", so ids reveal nothing. */
export function findUserAlert(db: Database, userId: number, id: number): Alert | undefined {
  return db
    .select()
    .from(alerts)
    .where(and(eq(alerts.id, id), eq(alerts.userId, userId)))
    .get();
}

export function createAlert(
  db: Database,
  userId: number,
  settings: AlertSettings,
  now: number,
): Alert {
  return db
    .insert(alerts)
    .values({ ...settings, userId, createdAt: now, updatedAt: now })
    .returning()
    .get();
}

/**
 * Applies a partial change. Switching an alert back on resets its Telegram count, so a trader
 * re-arming an alert that hit its limit gets its full limit again, and clears the reason the
 * server switched it off (it no longer applies).
 */
export function updateAlert(
  db: Database,
  userId: number,
  id: number,
  patch: Partial<AlertSettings>,
  now: number,
): Alert | undefined {
  return db.transaction((tx) => {
    const current = tx
      .select()
      .from(alerts)
      .where(and(eq(alerts.id, id), eq(alerts.userId, userId)))
      .get();
    if (!current) return undefined;
    const rearmed = patch.enabled === true && !current.enabled;
    return tx
      .update(alerts)
      .set({
        ...patch,
        ...(rearmed && { telegramNotificationCount: 0, disabledReason: null }),
        updatedAt: now,
      })
      .where(eq(alerts.id, id))
      .returning()
      .get();
  });
}

export function deleteAlert(db: Database, userId: number, id: number): boolean {
  return (
    db
      .delete(alerts)
      .where(and(eq(alerts.id, id), eq(alerts.userId, userId)))
      .run().changes > 0
  );
}

/**
 * A browser fired the alert: count it and remember when (never sends Telegram); with `firing`,
 * also its History row, in the same transaction.
 */
export function recordBrowserTrigger(
  db: Database,
  userId: number,
  id: number,
  now: number,
  firing?: BrowserFiring,
): Alert | undefined {
  return db.transaction(() => {
    const current = findUserAlert(db, userId, id);
    if (!current) return undefined;
    const alert = db
      .update(alerts)
      .set({ notificationCount: current.notificationCount + 1, lastTriggered: now })
      .where(eq(alerts.id, id))
      .returning()
      .get();
    if (firing) insertBrowserFiring(db, alert, firing, now);
    return alert;
  });
}

/** An alert the server watches for Telegram, with where its messages go. */
export type WatchedAlert = Alert & { chatId: string };

/**
 * Alerts that can send Telegram now: enabled, Telegram on, the owner allowed alerts and linked a
 * chat. Optionally for one user only (after that user's alerts, permission or link changed).
 */
export function listWatchedAlerts(db: Database, userId?: number): WatchedAlert[] {
  const conditions = [
    eq(alerts.enabled, true),
    eq(alerts.telegramNotify, true),
    eq(users.alertsEnabled, true),
  ];
  if (userId !== undefined) conditions.push(eq(alerts.userId, userId));
  return db
    .select({ alert: alerts, chatId: telegramLinks.chatId })
    .from(alerts)
    .innerJoin(users, eq(users.id, alerts.userId))
    .innerJoin(telegramLinks, eq(telegramLinks.userId, alerts.userId))
    .where(and(...conditions))
    .all()
    .map(({ alert, chatId }) => ({ ...alert, chatId }));
}

export interface TelegramFiring {
  alertId: number;
  /** The quote time of the crossing: stored as lastTelegramTriggered. */
  at: number;
  text: (alert: Alert) => string;
  now: number;
}

interface AlertRow {
  id: number;
  user_id: number;
  commodity_type: string;
  threshold: number;
  direction: string;
  sound_id: string;
  enabled: number;
  telegram_notify: number;
  max_notifications: number;
  telegram_notification_count: number;
  notification_count: number;
  last_triggered: number | null;
  last_telegram_triggered: number | null;
  metric: string;
  hysteresis: number | null;
  webhook_notify: number;
  last_fired_side: string | null;
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

function alertFromRow(row: AlertRow): Alert {
  return {
    id: row.id,
    userId: row.user_id,
    commodityType: row.commodity_type,
    threshold: row.threshold,
    direction: row.direction,
    soundId: row.sound_id,
    enabled: row.enabled === 1,
    telegramNotify: row.telegram_notify === 1,
    maxNotifications: row.max_notifications,
    telegramNotificationCount: row.telegram_notification_count,
    notificationCount: row.notification_count,
    lastTriggered: row.last_triggered,
    lastTelegramTriggered: row.last_telegram_triggered,
    metric: row.metric,
    hysteresis: row.hysteresis,
    webhookNotify: row.webhook_notify === 1,
    lastFiredSide: row.last_fired_side,
    disabledReason: row.disabled_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Prepared once per connection: a crossing storm can fire thousands of alerts in one quote, and
 * rebuilding the SQL per firing through the query builder cost ~0.5 ms each (BENCHMARKS.md).
 */
function firingStatements(db: Database) {
  let statements = firingStatementCache.get(db.$client);
  if (!statements) {
    const sqlite = db.$client;
    statements = {
      eligible: sqlite.prepare(
        `SELECT a.enabled, a.telegram_notify, a.telegram_notification_count, a.max_notifications,
                l.chat_id, u.alerts_enabled
           FROM alerts a
           JOIN users u ON u.id = a.user_id
           JOIN telegram_links l ON l.user_id = a.user_id
          WHERE a.id = ?`,
      ),
      update: sqlite.prepare(
        `UPDATE alerts SET telegram_notification_count = ?, last_telegram_triggered = ?, enabled = ?,
                updated_at = ?
          WHERE id = ? RETURNING *`,
      ),
      enqueue: sqlite.prepare(
        `INSERT INTO telegram_outbox (user_id, alert_id, chat_id, text, created_at, next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
      ),
    };
    firingStatementCache.set(sqlite, statements);
  }
  return statements;
}

const firingStatementCache = new WeakMap<
  object,
  {
    eligible: BetterSqlite3.Statement;
    update: BetterSqlite3.Statement;
    enqueue: BetterSqlite3.Statement;
  }
>();

interface EligibleRow {
  enabled: number;
  telegram_notify: number;
  telegram_notification_count: number;
  max_notifications: number;
  chat_id: string;
  alerts_enabled: number;
}

export type RecordedFiring = { alert: Alert; outboxId: number } | undefined;

/**
 * Telegram firings, atomically and all in one transaction: per firing the count, the trigger
 * time, the auto-disable at the limit and the outbox row. A firing whose alert can no longer
 * send (disabled, Telegram off, permission or chat gone) writes nothing and yields undefined.
 */
export function recordTelegramFirings(
  db: Database,
  firings: readonly TelegramFiring[],
): RecordedFiring[] {
  const { eligible, update, enqueue } = firingStatements(db);
  return db.$client.transaction(() =>
    firings.map((firing): RecordedFiring => {
      const row = eligible.get(firing.alertId) as EligibleRow | undefined;
      if (!row?.enabled || !row.telegram_notify || !row.alerts_enabled) return undefined;
      const sent = row.telegram_notification_count + 1;
      const stillEnabled = sent < row.max_notifications ? 1 : 0;
      const alert = alertFromRow(
        update.get(sent, firing.at, stillEnabled, firing.now, firing.alertId) as AlertRow,
      );
      const outbox = enqueue.get(
        alert.userId,
        alert.id,
        row.chat_id,
        firing.text(alert),
        firing.now,
        firing.now,
      ) as {
        id: number;
      };
      return { alert, outboxId: outbox.id };
    }),
  )();
}

/** One firing; see recordTelegramFirings. */
export function recordTelegramFiring(db: Database, firing: TelegramFiring): RecordedFiring {
  return recordTelegramFirings(db, [firing])[0];
}
