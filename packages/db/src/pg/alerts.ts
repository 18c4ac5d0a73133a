import { count, eq, inArray, sql } from "drizzle-orm";
import { owned, watchedFilter } from "../store/queries.ts";
import {
  alertChange,
  browserFiringRow,
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
import { changed, type PgDb } from "./connection.ts";
import { alertFirings, alerts, telegramLinks, users, userWebhooks } from "./schema.ts";
import { saveMarks } from "./spread-marks.ts";

/** The columns of an alert a refusal names (AlertStore.listOnSymbols). */
const ON_SYMBOL = {
  id: alerts.id,
  commodityType: alerts.commodityType,
  metric: alerts.metric,
  threshold: alerts.threshold,
  username: users.username,
};

export function pgAlerts(db: PgDb): AlertStore {
  const countOf = async (tx: PgDb, userId: number) => {
    const [row] = await tx.select({ n: count() }).from(alerts).where(eq(alerts.userId, userId));
    return row?.n ?? 0;
  };
  return {
    listByUser: (userId) =>
      db.select().from(alerts).where(eq(alerts.userId, userId)).orderBy(alerts.id),
    countByUser: (userId) => countOf(db, userId),
    async find(userId, id) {
      const [alert] = await db
        .select()
        .from(alerts)
        .where(owned(alerts, userId, id));
      return alert;
    },
    create: (userId, settings, now, maxPerUser) =>
      db.transaction(async (tx) => {
        if (maxPerUser !== undefined) {
          // The owner's row lock queues a user's parallel creates, so the count stays true.
          await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
          if ((await countOf(tx, userId)) >= maxPerUser) return undefined;
        }
        const [alert] = await tx
          .insert(alerts)
          .values(newAlertRow(userId, settings, now))
          .returning();
        return alert;
      }),
    update: (userId, id, patch, now) =>
      db.transaction(async (tx) => {
        const [current] = await tx
          .select()
          .from(alerts)
          .where(owned(alerts, userId, id))
          .for("update");
        if (!current) return undefined;
        const change = alertChange(current, patch, now);
        const [alert] = await tx.update(alerts).set(change).where(eq(alerts.id, id)).returning();
        return alert;
      }),
    delete: async (userId, id) =>
      (await changed(db.delete(alerts).where(owned(alerts, userId, id)))) > 0,
    recordBrowserTrigger: (userId, id, now, firing) =>
      db.transaction(async (tx) => {
        const counted = {
          notificationCount: sql`${alerts.notificationCount} + 1`,
          lastTriggered: now,
        };
        const [alert] = await tx
          .update(alerts)
          .set(counted)
          .where(owned(alerts, userId, id))
          .returning();
        if (alert && firing)
          await tx.insert(alertFirings).values(browserFiringRow(alert, firing, now));
        return alert;
      }),
    async listWatched(userId) {
      const { telegram, webhook, where } = watchedFilter(
        alerts,
        users.alertsEnabled,
        telegramLinks.chatId,
        userWebhooks.userId,
        userId,
      );
      const rows = await db
        .select({
          alert: alerts,
          chatId: sql<string | null>`case when ${telegram} then ${telegramLinks.chatId} end`,
          webhook: sql<boolean>`coalesce(${webhook}, false)`,
        })
        .from(alerts)
        .innerJoin(users, eq(users.id, alerts.userId))
        .leftJoin(telegramLinks, eq(telegramLinks.userId, alerts.userId))
        .leftJoin(userWebhooks, eq(userWebhooks.userId, alerts.userId))
        .where(where)
        .orderBy(alerts.id);
      return rows.map(({ alert, chatId, webhook }) => ({ ...alert, chatId, webhook }));
    },
    recordFirings: (firings, marks) =>
      db.transaction(async (tx) => {
        const recorded = await recordFirings(tx, firings);
        if (marks) await saveMarks(tx, marks);
        return recorded;
      }),
    recordHeld: (entries) => recordHeld(db, entries),
    listOnSymbols: async (symbols) =>
      symbols.length === 0
        ? []
        : db
            .select(ON_SYMBOL)
            .from(alerts)
            .innerJoin(users, eq(users.id, alerts.userId))
            .where(inArray(alerts.commodityType, [...symbols]))
            .orderBy(alerts.id),
    countOnSymbols: async (symbols) =>
      symbols.length === 0
        ? 0
        : ((
            await db
              .select({ n: count() })
              .from(alerts)
              .where(inArray(alerts.commodityType, [...symbols]))
          )[0]?.n ?? 0),
  };
}

/**
 * Set-based, so a crossing storm costs a handful of round trips, not four per firing: lock and
 * read every firing's alert (FOR UPDATE OF alerts: an edit cannot slip between the check and the
 * count), walk the firings in order as the one-by-one SQLite version does, write the alerts'
 * final states, then the History rows, then the outbox rows (a webhook body needs its firing id).
 */
async function recordFirings(tx: PgDb, firings: readonly AlertFiring[]): Promise<RecordedFiring[]> {
  const ids = [...new Set(firings.map((f) => f.alertId))];
  if (ids.length === 0) return [];
  const rows = await tx
    .select({
      id: alerts.id,
      enabled: alerts.enabled,
      telegramNotify: alerts.telegramNotify,
      webhookNotify: alerts.webhookNotify,
      sent: alerts.serverFiringCount,
      max: alerts.maxNotifications,
      chatId: telegramLinks.chatId,
      hasWebhook: sql<boolean>`${userWebhooks.userId} IS NOT NULL`,
      permitted: users.alertsEnabled,
    })
    .from(alerts)
    .innerJoin(users, eq(users.id, alerts.userId))
    .leftJoin(telegramLinks, eq(telegramLinks.userId, alerts.userId))
    .leftJoin(userWebhooks, eq(userWebhooks.userId, alerts.userId))
    .where(sql`${alerts.id} = ANY(${sql.param(ids)}::int[])`)
    .orderBy(alerts.id)
    .for("update", { of: alerts });
  const states = new Map(
    rows.map((row) => [
      row.id,
      { ...row, at: 0, now: 0, side: "above", reason: null as string | null },
    ]),
  );
  const planned = firings.map((firing) => {
    const state = states.get(firing.alertId);
    const { chatId, webhook } = usableChannels(state);
    if (!state || (chatId === null && !webhook)) return undefined;
    const counted = countFiring(state.sent, state.max, firing.at, {
      telegram: chatId !== null,
      webhook,
    });
    state.sent = counted.sent;
    state.enabled = counted.enabled;
    state.at = firing.at;
    state.now = firing.now;
    state.side = firing.direction;
    const { reason } = counted;
    if (reason) state.reason = reason;
    return { firing, chatId, webhook, sent: state.sent, enabled: state.enabled, reason };
  });
  const fired = planned.filter((p) => p !== undefined);
  if (fired.length === 0) return planned.map(() => undefined);

  const touched = [...new Set(fired.map((p) => p.firing.alertId))].map(
    (id) => states.get(id) as NonNullable<ReturnType<typeof states.get>>,
  );
  // Array parameters (sql.param), not one placeholder per value: a storm can touch thousands.
  const column = <T>(pick: (state: (typeof touched)[number]) => T) => sql.param(touched.map(pick));
  await tx.execute(sql`
    UPDATE alerts SET server_firing_count = v.sent, last_telegram_triggered = v.at,
           last_fired_side = v.side, enabled = v.enabled,
           disabled_reason = coalesce(v.reason, alerts.disabled_reason), updated_at = v.now
      FROM unnest(${column((t) => t.id)}::int[], ${column((t) => t.sent)}::int[],
                  ${column((t) => t.at)}::bigint[], ${column((t) => t.side)}::text[],
                  ${column((t) => t.enabled)}::boolean[], ${column((t) => t.reason)}::text[],
                  ${column((t) => t.now)}::bigint[]) AS v(id, sent, at, side, enabled, reason, now)
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
      serverFiringCount: p.sent,
      enabled: p.enabled,
      lastTelegramTriggered: p.firing.at,
      lastFiredSide: p.firing.direction,
      disabledReason: p.reason,
      updatedAt: p.firing.now,
    },
  }));
  const firingIds = await insertHistory(tx, asFired);
  const queued = asFired.flatMap(({ alert, chatId, webhook, firing }, i) => {
    const firingId = firingIds[i] as number;
    const row = (channel: AlertChannel, chat: string, text: string) => ({
      index: i,
      channel,
      userId: alert.userId,
      alertId: alert.id,
      firingId,
      chatId: chat,
      text,
      now: firing.now,
    });
    return [
      ...(chatId !== null ? [row("telegram", chatId, firing.text(alert))] : []),
      ...(webhook ? [row("webhook", "", firing.webhookBody(alert, firingId))] : []),
    ];
  });
  const param = <T>(pick: (row: (typeof queued)[number]) => T) => sql.param(queued.map(pick));
  // The builder's one-placeholder-per-value INSERT cost ~0.25 ms a row in a storm; arrays don't.
  const { rows: outbox } = await tx.execute<{ id: number }>(sql`
    INSERT INTO outbox (user_id, alert_id, channel, firing_id, chat_id, text, created_at,
                                 next_attempt_at)
    SELECT v.user_id, v.alert_id, v.channel, v.firing_id, v.chat_id, v.text, v.now, v.now
      FROM unnest(${param((r) => r.userId)}::int[], ${param((r) => r.alertId)}::int[],
                  ${param((r) => r.channel)}::text[], ${param((r) => r.firingId)}::int[],
                  ${param((r) => r.chatId)}::text[], ${param((r) => r.text)}::text[],
                  ${param((r) => r.now)}::bigint[])
           WITH ORDINALITY AS v(user_id, alert_id, channel, firing_id, chat_id, text, now, n)
     ORDER BY v.n
    RETURNING id`);
  // Identity values are drawn in SELECT order, so ascending ids follow the rows' order.
  const outboxIds = outbox.map((row) => Number(row.id)).sort((a, b) => a - b);
  const results: NonNullable<RecordedFiring>[] = asFired.map((p, i) => ({
    alert: p.alert,
    firingId: firingIds[i] as number,
    outbox: [],
  }));
  queued.forEach((row, k) => {
    results[row.index]?.outbox.push({ channel: row.channel, id: outboxIds[k] as number });
  });
  const byFiring = new Map(asFired.map((p, i) => [p.firing, results[i]]));
  return planned.map((p) => (p ? byFiring.get(p.firing) : undefined));
}

/** The History rows of the firings, in order; returns their ids in the same order. */
async function insertHistory(
  tx: PgDb,
  fired: readonly { firing: AlertFiring; alert: Alert; reason: string | null }[],
): Promise<number[]> {
  const param = <T>(pick: (row: (typeof fired)[number]) => T) => sql.param(fired.map(pick));
  const { rows } = await tx.execute<{ id: number }>(sql`
    INSERT INTO alert_firings (user_id, alert_id, symbol, metric, value, threshold, direction,
                               state, source, note, fired_at, created_at)
    SELECT v.user_id, v.alert_id, v.symbol, v.metric, v.value, v.threshold, v.direction,
           'fired', 'server', v.note, v.at, v.now
      FROM unnest(${param((r) => r.alert.userId)}::int[], ${param((r) => r.alert.id)}::int[],
                  ${param((r) => r.firing.symbol)}::text[], ${param((r) => r.firing.metric)}::text[],
                  ${param((r) => r.firing.value)}::float8[],
                  ${param((r) => r.firing.threshold)}::float8[],
                  ${param((r) => r.firing.direction)}::text[], ${param((r) => r.reason)}::text[],
                  ${param((r) => r.firing.at)}::bigint[], ${param((r) => r.firing.now)}::bigint[])
           WITH ORDINALITY AS v(user_id, alert_id, symbol, metric, value, threshold, direction,
                                note, at, now, n)
     ORDER BY v.n
    RETURNING id`);
  return rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}

/** "held" History rows, one statement; a deleted alert's entry writes nothing. */
async function recordHeld(db: PgDb, entries: readonly HeldCrossing[]): Promise<number> {
  if (entries.length === 0) return 0;
  const param = <T>(pick: (row: HeldCrossing) => T) => sql.param(entries.map(pick));
  const result = await db.execute(sql`
    INSERT INTO alert_firings (user_id, alert_id, symbol, metric, value, threshold, direction,
                               state, source, note, fired_at, created_at)
    SELECT a.user_id, a.id, v.symbol, v.metric, v.value, v.threshold, v.direction, 'held',
           'server', v.note, v.at, v.now
      FROM unnest(${param((e) => e.alertId)}::int[], ${param((e) => e.symbol)}::text[],
                  ${param((e) => e.metric)}::text[], ${param((e) => e.value)}::float8[],
                  ${param((e) => e.threshold)}::float8[], ${param((e) => e.direction)}::text[],
                  ${param((e) => e.note)}::text[], ${param((e) => e.at)}::bigint[],
                  ${param((e) => e.now)}::bigint[])
           WITH ORDINALITY AS v(alert_id, symbol, metric, value, threshold, direction, note, at,
                                now, n)
      JOIN alerts a ON a.id = v.alert_id
     ORDER BY v.n`);
  return result.rowCount ?? 0;
}
