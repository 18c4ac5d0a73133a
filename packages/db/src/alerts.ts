import { and, count, eq } from "drizzle-orm";
import type { Database } from "./connection.ts";
import { alerts, telegramLinks, telegramOutbox, users } from "./schema/index.ts";

export type Alert = typeof alerts.$inferSelect;

/** The fields a user sets; counts and trigger times belong to the server. */
export interface AlertSettings {
  commodityType: string;
  threshold: number;
  soundId: string;
  enabled: boolean;
  telegramNotify: boolean;
  maxNotifications: number;
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
 * re-arming an alert that hit its limit gets its full limit again.
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
      .set({ ...patch, ...(rearmed && { telegramNotificationCount: 0 }), updatedAt: now })
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

/** A browser fired the alert: count it and remember when (never sends Telegram). */
export function recordBrowserTrigger(
  db: Database,
  userId: number,
  id: number,
  now: number,
): Alert | undefined {
  const current = findUserAlert(db, userId, id);
  if (!current) return undefined;
  return db
    .update(alerts)
    .set({ notificationCount: current.notificationCount + 1, lastTriggered: now })
    .where(eq(alerts.id, id))
    .returning()
    .get();
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

/**
 * One Telegram firing, atomically: the count, the trigger time, the auto-disable at the limit and
 * the outbox row. Returns undefined (and writes nothing) if the alert can no longer send.
 */
export function recordTelegramFiring(
  db: Database,
  firing: TelegramFiring,
): { alert: Alert; outboxId: number } | undefined {
  return db.transaction((tx) => {
    const row = tx
      .select({ alert: alerts, chatId: telegramLinks.chatId, alertsEnabled: users.alertsEnabled })
      .from(alerts)
      .innerJoin(users, eq(users.id, alerts.userId))
      .innerJoin(telegramLinks, eq(telegramLinks.userId, alerts.userId))
      .where(eq(alerts.id, firing.alertId))
      .get();
    if (!row?.alert.enabled || !row.alert.telegramNotify || !row.alertsEnabled) return undefined;
    const sent = row.alert.telegramNotificationCount + 1;
    const alert = tx
      .update(alerts)
      .set({
        telegramNotificationCount: sent,
        lastTelegramTriggered: firing.at,
        enabled: sent < row.alert.maxNotifications,
        updatedAt: firing.now,
      })
      .where(eq(alerts.id, firing.alertId))
      .returning()
      .get();
    const outbox = tx
      .insert(telegramOutbox)
      .values({
        userId: alert.userId,
        alertId: alert.id,
        chatId: row.chatId,
        text: firing.text(alert),
        createdAt: firing.now,
        nextAttemptAt: firing.now,
      })
      .returning({ id: telegramOutbox.id })
      .get();
    return { alert, outboxId: outbox.id };
  });
}
