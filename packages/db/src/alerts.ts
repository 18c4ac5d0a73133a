import type { AlertMetric } from "@spreadwatch/core";
import type BetterSqlite3 from "better-sqlite3";
import { and, count, eq, isNotNull, or, sql } from "drizzle-orm";
import type { Database } from "./connection.ts";
import { type BrowserFiring, insertBrowserFiring } from "./firings.ts";
import { alerts, telegramLinks, users, userWebhooks } from "./schema/index.ts";

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
    const alert = db
      .update(alerts)
      .set({ notificationCount: sql`${alerts.notificationCount} + 1`, lastTriggered: now })
      .where(and(eq(alerts.id, id), eq(alerts.userId, userId)))
      .returning()
      .get();
    if (alert && firing) insertBrowserFiring(db, alert, firing, now);
    return alert;
  });
}

/**
 * An alert the server watches, with the channels it can use now: `chatId` when Telegram is on
 * and a chat is linked, `webhook` when webhooks are on and the user set one.
 */
export type WatchedAlert = Alert & { chatId: string | null; webhook: boolean };

/**
 * Alerts the server can deliver now: enabled, the owner allowed alerts, and at least one usable
 * channel (Telegram on with a linked chat, or webhook on with a webhook set). Optionally for one
 * user only (after that user's alerts, permission, chat or webhook changed).
 */
export function listWatchedAlerts(db: Database, userId?: number): WatchedAlert[] {
  const telegram = and(eq(alerts.telegramNotify, true), isNotNull(telegramLinks.chatId));
  const webhook = and(eq(alerts.webhookNotify, true), isNotNull(userWebhooks.userId));
  const conditions = [
    eq(alerts.enabled, true),
    eq(users.alertsEnabled, true),
    or(telegram, webhook),
  ];
  if (userId !== undefined) conditions.push(eq(alerts.userId, userId));
  return db
    .select({ alert: alerts, chatId: telegramLinks.chatId, hook: userWebhooks.userId })
    .from(alerts)
    .innerJoin(users, eq(users.id, alerts.userId))
    .leftJoin(telegramLinks, eq(telegramLinks.userId, alerts.userId))
    .leftJoin(userWebhooks, eq(userWebhooks.userId, alerts.userId))
    .where(and(...conditions))
    .all()
    .map(({ alert, chatId, hook }) => ({
      ...alert,
      chatId: alert.telegramNotify ? chatId : null,
      webhook: alert.webhookNotify && hook !== null,
    }))
    .sort((a, b) => a.id - b.id);
}

/** Where a firing is delivered. */
export type AlertChannel = "telegram" | "webhook";

/** A threshold crossing of one alert, as a History row records it (fired or held). */
export interface Crossing {
  alertId: number;
  symbol: string;
  /** The metric the threshold was compared with ("spread", "zscore", "percentile"). */
  metric: string;
  /** The metric's value that crossed. */
  value: number;
  threshold: number;
  /** The side crossed into: stored as the entry's direction (and a firing's lastFiredSide). */
  direction: "above" | "below";
  /** The quote time of the crossing: stored as firedAt (and a firing's lastTelegramTriggered). */
  at: number;
  now: number;
}

/** One crossing the server fired: what the History shows and what each channel is sent. */
export interface AlertFiring extends Crossing {
  /** The Telegram text, given the alert as it is right after this firing. */
  text: (alert: Alert) => string;
  /** The webhook's JSON body, given the alert after this firing and the firing's id. */
  webhookBody: (alert: Alert, firingId: number) => string;
}

/** A crossing the server held back (a stale leg, a closed market): a "held" History row. */
export interface HeldCrossing extends Crossing {
  /** Why it was held, e.g. "Held: CME GC quote stale (14 s old)". */
  note: string;
}

export type RecordedFiring =
  | { alert: Alert; firingId: number; outbox: { channel: AlertChannel; id: number }[] }
  | undefined;

const IST_CLOCK = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Asia/Kolkata",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** The server channels a firing went to: what its limit is named after. */
export interface FiringChannels {
  telegram: boolean;
  webhook: boolean;
}

/**
 * The name of the one limit an alert's server channels share (README "Spread alerts"): the
 * channels themselves, "Telegram", "Webhook" or "Telegram + Webhook", so a webhook-only alert
 * never reads as a Telegram one.
 */
function limitName(channels: FiringChannels): string {
  if (channels.telegram && channels.webhook) return "Telegram + Webhook";
  return channels.webhook ? "Webhook" : "Telegram";
}

/**
 * Why the server switched an alert off at its limit: "Telegram limit 3 of 3 reached at 14:02 IST"
 * ("Webhook limit …", "Telegram + Webhook limit …" by where the last firing went), at the
 * crossing's time.
 */
export function limitReason(max: number, at: number, channels: FiringChannels): string {
  return `${limitName(channels)} limit ${max} of ${max} reached at ${IST_CLOCK.format(at)} IST`;
}

/** What decides where a server firing of an alert can go now (both engines read it). */
export interface ChannelState {
  enabled: boolean;
  /** The owner's alerts_enabled. */
  permitted: boolean;
  telegramNotify: boolean;
  chatId: string | null;
  webhookNotify: boolean;
  hasWebhook: boolean;
}

/** The channels an alert can deliver to now: none when it cannot fire at all. */
export function usableChannels(state: ChannelState | undefined): {
  chatId: string | null;
  webhook: boolean;
} {
  if (!state?.enabled || !state.permitted) return { chatId: null, webhook: false };
  return {
    chatId: state.telegramNotify ? state.chatId : null,
    webhook: state.webhookNotify && state.hasWebhook,
  };
}

/**
 * One more server delivery counted against the alert's limit, whichever channels it went to
 * (Telegram, webhook or both count once): the new count, whether the alert stays on, and why not.
 */
export function countFiring(sent: number, max: number, at: number, channels: FiringChannels) {
  const count = sent + 1;
  const enabled = count < max;
  return { sent: count, enabled, reason: enabled ? null : limitReason(max, at, channels) };
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
function firingStatements(db: Database): FiringStatements {
  let statements = firingStatementCache.get(db.$client);
  if (!statements) {
    const sqlite = db.$client;
    statements = {
      eligible: sqlite.prepare(
        `SELECT a.enabled, a.telegram_notify, a.webhook_notify, a.telegram_notification_count,
                a.max_notifications, u.alerts_enabled, l.chat_id, w.user_id IS NOT NULL AS has_webhook
           FROM alerts a
           JOIN users u ON u.id = a.user_id
           LEFT JOIN telegram_links l ON l.user_id = a.user_id
           LEFT JOIN user_webhooks w ON w.user_id = a.user_id
          WHERE a.id = ?`,
      ),
      update: sqlite.prepare(
        `UPDATE alerts SET telegram_notification_count = ?, last_telegram_triggered = ?,
                last_fired_side = ?, enabled = ?, disabled_reason = coalesce(?, disabled_reason),
                updated_at = ?
          WHERE id = ? RETURNING *`,
      ),
      history: sqlite.prepare(
        `INSERT INTO alert_firings (user_id, alert_id, symbol, metric, value, threshold, direction,
                                    state, source, note, fired_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'fired', 'server', ?, ?, ?) RETURNING id`,
      ),
      held: sqlite.prepare(
        `INSERT INTO alert_firings (user_id, alert_id, symbol, metric, value, threshold, direction,
                                    state, source, note, fired_at, created_at)
         SELECT user_id, id, ?, ?, ?, ?, ?, 'held', 'server', ?, ?, ? FROM alerts WHERE id = ?`,
      ),
      enqueue: sqlite.prepare(
        `INSERT INTO telegram_outbox (user_id, alert_id, channel, firing_id, chat_id, text,
                                      created_at, next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      ),
    };
    firingStatementCache.set(sqlite, statements);
  }
  return statements;
}

interface FiringStatements {
  eligible: BetterSqlite3.Statement;
  update: BetterSqlite3.Statement;
  history: BetterSqlite3.Statement;
  held: BetterSqlite3.Statement;
  enqueue: BetterSqlite3.Statement;
}

const firingStatementCache = new WeakMap<object, FiringStatements>();

interface EligibleRow {
  enabled: number;
  telegram_notify: number;
  webhook_notify: number;
  telegram_notification_count: number;
  max_notifications: number;
  alerts_enabled: number;
  chat_id: string | null;
  has_webhook: number;
}

/** SQLite's 0/1 columns as the engines' shared rule reads them. */
function channelState(row: EligibleRow | undefined): ChannelState | undefined {
  return (
    row && {
      enabled: row.enabled === 1,
      permitted: row.alerts_enabled === 1,
      telegramNotify: row.telegram_notify === 1,
      chatId: row.chat_id,
      webhookNotify: row.webhook_notify === 1,
      hasWebhook: row.has_webhook === 1,
    }
  );
}

/**
 * Server firings, atomically and all in one transaction: per firing the count, the trigger time
 * and side, the auto-disable at the limit (with its reason), the History row and one outbox row
 * per usable channel. A firing whose alert can deliver nowhere now (disabled, permission gone, no
 * usable channel) writes nothing and yields undefined.
 */
export function recordFirings(db: Database, firings: readonly AlertFiring[]): RecordedFiring[] {
  const { eligible, update, history, enqueue } = firingStatements(db);
  return db.$client.transaction(() =>
    firings.map((firing): RecordedFiring => {
      const row = eligible.get(firing.alertId) as EligibleRow | undefined;
      const { chatId, webhook } = usableChannels(channelState(row));
      if (!row || (chatId === null && !webhook)) return undefined;
      const { sent, enabled, reason } = countFiring(
        row.telegram_notification_count,
        row.max_notifications,
        firing.at,
        { telegram: chatId !== null, webhook },
      );
      const alert = alertFromRow(
        update.get(
          sent,
          firing.at,
          firing.direction,
          enabled ? 1 : 0,
          reason,
          firing.now,
          firing.alertId,
        ) as AlertRow,
      );
      const { id: firingId } = history.get(
        alert.userId,
        alert.id,
        firing.symbol,
        firing.metric,
        firing.value,
        firing.threshold,
        firing.direction,
        reason,
        firing.at,
        firing.now,
      ) as { id: number };
      const outbox: { channel: AlertChannel; id: number }[] = [];
      const queue = (channel: AlertChannel, chat: string, text: string) => {
        const { id } = enqueue.get(
          alert.userId,
          alert.id,
          channel,
          firingId,
          chat,
          text,
          firing.now,
          firing.now,
        ) as { id: number };
        outbox.push({ channel, id });
      };
      if (chatId !== null) queue("telegram", chatId, firing.text(alert));
      if (webhook) queue("webhook", "", firing.webhookBody(alert, firingId));
      return { alert, firingId, outbox };
    }),
  )();
}

/** Held crossings as "held" History rows; a deleted alert's entry writes nothing. Returns how many. */
export function recordHeld(db: Database, entries: readonly HeldCrossing[]): number {
  const { held } = firingStatements(db);
  return db.$client.transaction(() => {
    let written = 0;
    for (const e of entries) {
      written += held.run(
        e.symbol,
        e.metric,
        e.value,
        e.threshold,
        e.direction,
        e.note,
        e.at,
        e.now,
        e.alertId,
      ).changes;
    }
    return written;
  })();
}
