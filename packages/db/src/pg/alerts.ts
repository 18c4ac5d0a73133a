import { and, count, eq, sql } from "drizzle-orm";
import type { Alert, RecordedFiring, TelegramFiring } from "../alerts.ts";
import { browserFiringRow } from "../firings.ts";
import type { AlertStore } from "../store/store.ts";
import type { PgDb } from "./connection.ts";
import { alertFirings, alerts, telegramLinks, users } from "./schema/index.ts";
import { saveMarks } from "./spread-marks.ts";

const owned = (userId: number, id: number) => and(eq(alerts.id, id), eq(alerts.userId, userId));

export function pgAlerts(db: PgDb): AlertStore {
  return {
    listByUser: (userId) =>
      db.select().from(alerts).where(eq(alerts.userId, userId)).orderBy(alerts.id),
    async countByUser(userId) {
      const [row] = await db.select({ n: count() }).from(alerts).where(eq(alerts.userId, userId));
      return row?.n ?? 0;
    },
    async find(userId, id) {
      const [alert] = await db.select().from(alerts).where(owned(userId, id));
      return alert;
    },
    create: (userId, settings, now, maxPerUser) =>
      db.transaction(async (tx) => {
        if (maxPerUser !== undefined) {
          // The owner's row lock queues a user's parallel creates, so the count stays true.
          await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
          const [row] = await tx
            .select({ n: count() })
            .from(alerts)
            .where(eq(alerts.userId, userId));
          if ((row?.n ?? 0) >= maxPerUser) return undefined;
        }
        const [alert] = await tx
          .insert(alerts)
          .values({ ...settings, userId, createdAt: now, updatedAt: now })
          .returning();
        return alert;
      }),
    update: (userId, id, patch, now) =>
      db.transaction(async (tx) => {
        const [current] = await tx.select().from(alerts).where(owned(userId, id)).for("update");
        if (!current) return undefined;
        const rearmed = patch.enabled === true && !current.enabled;
        const [alert] = await tx
          .update(alerts)
          .set({
            ...patch,
            ...(rearmed && { telegramNotificationCount: 0, disabledReason: null }),
            updatedAt: now,
          })
          .where(eq(alerts.id, id))
          .returning();
        return alert;
      }),
    async delete(userId, id) {
      const rows = await db.delete(alerts).where(owned(userId, id)).returning({ id: alerts.id });
      return rows.length > 0;
    },
    recordBrowserTrigger: (userId, id, now, firing) =>
      db.transaction(async (tx) => {
        const [alert] = await tx
          .update(alerts)
          .set({ notificationCount: sql`${alerts.notificationCount} + 1`, lastTriggered: now })
          .where(owned(userId, id))
          .returning();
        if (alert && firing)
          await tx.insert(alertFirings).values(browserFiringRow(alert, firing, now));
        return alert;
      }),
    async listWatched(userId) {
      const conditions = [
        eq(alerts.enabled, true),
        eq(alerts.telegramNotify, true),
        eq(users.alertsEnabled, true),
      ];
      if (userId !== undefined) conditions.push(eq(alerts.userId, userId));
      const rows = await db
        .select({ alert: alerts, chatId: telegramLinks.chatId })
        .from(alerts)
        .innerJoin(users, eq(users.id, alerts.userId))
        .innerJoin(telegramLinks, eq(telegramLinks.userId, alerts.userId))
        .where(and(...conditions))
        .orderBy(alerts.id);
      return rows.map(({ alert, chatId }) => ({ ...alert, chatId }));
    },
    recordTelegramFirings: (firings, marks) =>
      db.transaction(async (tx) => {
        const recorded = await recordFirings(tx, firings);
        if (marks) await saveMarks(tx, marks);
        return recorded;
      }),
  };
}

/**
 * Set-based, so a crossing storm costs a handful of round trips, not three per firing: lock and
 * read every firing's alert (FOR UPDATE OF alerts: an edit cannot slip between the check and the
 * count), walk the firings in order as the one-by-one SQLite version does, write the alerts'
 * final states, then the outbox rows.
 */
async function recordFirings(
  tx: PgDb,
  firings: readonly TelegramFiring[],
): Promise<RecordedFiring[]> {
  const ids = [...new Set(firings.map((f) => f.alertId))];
  if (ids.length === 0) return [];
  const rows = await tx
    .select({
      id: alerts.id,
      enabled: alerts.enabled,
      telegramNotify: alerts.telegramNotify,
      sent: alerts.telegramNotificationCount,
      max: alerts.maxNotifications,
      chatId: telegramLinks.chatId,
      permitted: users.alertsEnabled,
    })
    .from(alerts)
    .innerJoin(users, eq(users.id, alerts.userId))
    .innerJoin(telegramLinks, eq(telegramLinks.userId, alerts.userId))
    .where(sql`${alerts.id} = ANY(${sql.param(ids)}::int[])`)
    .orderBy(alerts.id)
    .for("update", { of: alerts });
  const states = new Map(rows.map((row) => [row.id, { ...row, at: 0, now: 0 }]));
  const planned = firings.map((firing) => {
    const state = states.get(firing.alertId);
    if (!state?.enabled || !state.telegramNotify || !state.permitted) return undefined;
    state.sent += 1;
    state.enabled = state.sent < state.max;
    state.at = firing.at;
    state.now = firing.now;
    return { firing, chatId: state.chatId, sent: state.sent, enabled: state.enabled };
  });
  const fired = planned.filter((p) => p !== undefined);
  if (fired.length === 0) return planned.map(() => undefined);

  const touched = [...new Set(fired.map((p) => p.firing.alertId))].map(
    (id) => states.get(id) as NonNullable<ReturnType<typeof states.get>>,
  );
  // Array parameters (sql.param), not one placeholder per value: a storm can touch thousands.
  const column = <T>(pick: (state: (typeof touched)[number]) => T) => sql.param(touched.map(pick));
  await tx.execute(sql`
    UPDATE alerts SET telegram_notification_count = v.sent, last_telegram_triggered = v.at,
           enabled = v.enabled, updated_at = v.now
      FROM unnest(${column((t) => t.id)}::int[], ${column((t) => t.sent)}::int[],
                  ${column((t) => t.at)}::bigint[], ${column((t) => t.enabled)}::boolean[],
                  ${column((t) => t.now)}::bigint[]) AS v(id, sent, at, enabled, now)
     WHERE alerts.id = v.id`);
  const stored = new Map(
    (
      await tx
        .select()
        .from(alerts)
        .where(sql`${alerts.id} = ANY(${sql.param(touched.map((t) => t.id))}::int[])`)
    ).map((alert) => [alert.id, alert]),
  );
  // Each firing sees its alert as it was right after that firing (its count, not the last).
  const asFired = fired.map((p) => ({
    ...p,
    alert: {
      ...(stored.get(p.firing.alertId) as Alert),
      telegramNotificationCount: p.sent,
      enabled: p.enabled,
      lastTelegramTriggered: p.firing.at,
      updatedAt: p.firing.now,
    },
  }));
  const queued = asFired.map(({ alert, chatId, firing }) => ({
    userId: alert.userId,
    alertId: alert.id,
    chatId,
    text: firing.text(alert),
    now: firing.now,
  }));
  const param = <T>(pick: (row: (typeof queued)[number]) => T) => sql.param(queued.map(pick));
  // The builder's one-placeholder-per-value INSERT cost ~0.25 ms a row in a storm; arrays don't.
  const { rows: outbox } = await tx.execute<{ id: number }>(sql`
    INSERT INTO telegram_outbox (user_id, alert_id, chat_id, text, created_at, next_attempt_at)
    SELECT v.user_id, v.alert_id, v.chat_id, v.text, v.now, v.now
      FROM unnest(${param((r) => r.userId)}::int[], ${param((r) => r.alertId)}::int[],
                  ${param((r) => r.chatId)}::text[], ${param((r) => r.text)}::text[],
                  ${param((r) => r.now)}::bigint[])
           WITH ORDINALITY AS v(user_id, alert_id, chat_id, text, now, n)
     ORDER BY v.n
    RETURNING id`);
  // Identity values are drawn in VALUES order, so ascending ids follow the firings' order.
  const outboxIds = outbox.map((row) => Number(row.id)).sort((a, b) => a - b);
  const byFiring = new Map(
    asFired.map((p, i) => [p.firing, { alert: p.alert, outboxId: outboxIds[i] as number }]),
  );
  return planned.map((p) => (p ? byFiring.get(p.firing) : undefined));
}
