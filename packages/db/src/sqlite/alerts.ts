import type BetterSqlite3 from "better-sqlite3";
import { count, eq, inArray, sql } from "drizzle-orm";
import { owned, watchedFilter } from "../store/queries.ts";
import {
  alertChange,
  browserFiringRow,
  type ChannelState,
  countFiring,
  newAlertRow,
  usableChannels,
} from "../store/rules.ts";
import type { AlertStore } from "../store/store.ts";
import type {
  Alert,
  AlertChannel,
  AlertFiring,
  HeldCrossing,
  RecordedFiring,
} from "../store/types.ts";
import { changed, type Database } from "./connection.ts";
import { alertFirings, alerts, telegramLinks, users, userWebhooks } from "./schema.ts";
import { saveMarks } from "./spread-marks.ts";
import type { Sqlite } from "./store.ts";

/** The columns of an alert a refusal names (AlertStore.listOnSymbols). */
const ON_SYMBOL = {
  id: alerts.id,
  commodityType: alerts.commodityType,
  metric: alerts.metric,
  threshold: alerts.threshold,
  username: users.username,
};

export function sqliteAlerts({ db, run }: Sqlite): AlertStore {
  const countOf = (userId: number) =>
    db.select({ n: count() }).from(alerts).where(eq(alerts.userId, userId)).get()?.n ?? 0;
  const find = (userId: number, id: number) =>
    db
      .select()
      .from(alerts)
      .where(owned(alerts, userId, id))
      .get();
  return {
    listByUser: (userId) =>
      run(() => db.select().from(alerts).where(eq(alerts.userId, userId)).orderBy(alerts.id).all()),
    countByUser: (userId) => run(() => countOf(userId)),
    find: (userId, id) => run(() => find(userId, id)),
    create: (userId, settings, now, maxPerUser) =>
      run(() =>
        db.transaction(() => {
          if (maxPerUser !== undefined && countOf(userId) >= maxPerUser) return undefined;
          return db
            .insert(alerts)
            .values(newAlertRow(userId, settings, now))
            .returning()
            .get();
        }),
      ),
    update: (userId, id, patch, now) =>
      run(() =>
        db.transaction(() => {
          const current = find(userId, id);
          if (!current) return undefined;
          const change = alertChange(current, patch, now);
          return db.update(alerts).set(change).where(eq(alerts.id, id)).returning().get();
        }),
      ),
    delete: (userId, id) =>
      run(() => changed(db.delete(alerts).where(owned(alerts, userId, id))) > 0),
    recordBrowserTrigger: (userId, id, now, firing) =>
      run(() =>
        db.transaction(() => {
          const alert = db
            .update(alerts)
            .set({ notificationCount: sql`${alerts.notificationCount} + 1`, lastTriggered: now })
            .where(owned(alerts, userId, id))
            .returning()
            .get();
          if (alert && firing)
            db.insert(alertFirings)
              .values(browserFiringRow(alert, firing, now))
              .run();
          return alert;
        }),
      ),
    listWatched: (userId) =>
      run(() => {
        const filter = watchedFilter(
          alerts,
          users.alertsEnabled,
          telegramLinks.chatId,
          userWebhooks.userId,
          userId,
        );
        return db
          .select({ alert: alerts, chatId: telegramLinks.chatId, hook: userWebhooks.userId })
          .from(alerts)
          .innerJoin(users, eq(users.id, alerts.userId))
          .leftJoin(telegramLinks, eq(telegramLinks.userId, alerts.userId))
          .leftJoin(userWebhooks, eq(userWebhooks.userId, alerts.userId))
          .where(filter.where)
          .orderBy(alerts.id)
          .all()
          .map(({ alert, chatId, hook }) => ({
            ...alert,
            chatId: alert.telegramNotify ? chatId : null,
            webhook: alert.webhookNotify && hook !== null,
          }));
      }),
    recordFirings: (firings, marks) =>
      run(() =>
        db.transaction(() => {
          const recorded = recordFirings(db, firings);
          if (marks) saveMarks(db, marks);
          return recorded;
        }),
      ),
    recordHeld: (entries) => run(() => recordHeld(db, entries)),
    listOnSymbols: (symbols) =>
      run(() =>
        symbols.length === 0
          ? []
          : db
              .select(ON_SYMBOL)
              .from(alerts)
              .innerJoin(users, eq(users.id, alerts.userId))
              .where(inArray(alerts.commodityType, [...symbols]))
              .orderBy(alerts.id)
              .all(),
      ),
    countOnSymbols: (symbols) =>
      run(() =>
        symbols.length === 0
          ? 0
          : (db
              .select({ n: count() })
              .from(alerts)
              .where(inArray(alerts.commodityType, [...symbols]))
              .get()?.n ?? 0),
      ),
  };
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
  server_firing_count: number;
  notification_count: number;
  last_triggered: number | null;
  last_telegram_triggered: number | null;
  metric: Alert["metric"];
  hysteresis: number | null;
  webhook_notify: number;
  last_fired_side: Alert["lastFiredSide"];
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
    serverFiringCount: row.server_firing_count,
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
        `SELECT a.enabled, a.telegram_notify, a.webhook_notify, a.server_firing_count,
                a.max_notifications, u.alerts_enabled, l.chat_id, w.user_id IS NOT NULL AS has_webhook
           FROM alerts a
           JOIN users u ON u.id = a.user_id
           LEFT JOIN telegram_links l ON l.user_id = a.user_id
           LEFT JOIN user_webhooks w ON w.user_id = a.user_id
          WHERE a.id = ?`,
      ),
      update: sqlite.prepare(
        `UPDATE alerts SET server_firing_count = ?, last_telegram_triggered = ?,
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
        `INSERT INTO outbox (user_id, alert_id, channel, firing_id, chat_id, text,
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
  server_firing_count: number;
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
 * Server firings one by one through the prepared statements, in one transaction: per firing the
 * count, the trigger time and side, the auto-disable at the limit (with its reason), the History
 * row and one outbox row per usable channel. A firing whose alert can deliver nowhere now writes
 * nothing and yields undefined.
 */
function recordFirings(db: Database, firings: readonly AlertFiring[]): RecordedFiring[] {
  const { eligible, update, history, enqueue } = firingStatements(db);
  return db.$client.transaction(() =>
    firings.map((firing): RecordedFiring => {
      const row = eligible.get(firing.alertId) as EligibleRow | undefined;
      const { chatId, webhook } = usableChannels(channelState(row));
      if (!row || (chatId === null && !webhook)) return undefined;
      const { sent, enabled, reason } = countFiring(
        row.server_firing_count,
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
function recordHeld(db: Database, entries: readonly HeldCrossing[]): number {
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
