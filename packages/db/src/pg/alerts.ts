import { and, count, eq, sql } from "drizzle-orm";
import type { RecordedFiring } from "../alerts.ts";
import type { AlertStore } from "../store/store.ts";
import type { PgDb } from "./connection.ts";
import { alerts, telegramLinks, telegramOutbox, users } from "./schema/index.ts";
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
          .set({ ...patch, ...(rearmed && { telegramNotificationCount: 0 }), updatedAt: now })
          .where(eq(alerts.id, id))
          .returning();
        return alert;
      }),
    async delete(userId, id) {
      const rows = await db.delete(alerts).where(owned(userId, id)).returning({ id: alerts.id });
      return rows.length > 0;
    },
    async recordBrowserTrigger(userId, id, now) {
      const [alert] = await db
        .update(alerts)
        .set({ notificationCount: sql`${alerts.notificationCount} + 1`, lastTriggered: now })
        .where(owned(userId, id))
        .returning();
      return alert;
    },
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
        const recorded: RecordedFiring[] = [];
        for (const firing of firings) {
          // FOR UPDATE OF the alert: a user's edit cannot slip between the check and the count.
          const [row] = await tx
            .select({
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
            .where(eq(alerts.id, firing.alertId))
            .for("update", { of: alerts });
          if (!row?.enabled || !row.telegramNotify || !row.permitted) {
            recorded.push(undefined);
            continue;
          }
          const sent = row.sent + 1;
          const [alert] = await tx
            .update(alerts)
            .set({
              telegramNotificationCount: sent,
              lastTelegramTriggered: firing.at,
              enabled: sent < row.max,
              updatedAt: firing.now,
            })
            .where(eq(alerts.id, firing.alertId))
            .returning();
          if (!alert) throw new Error(`alert ${firing.alertId} vanished under its row lock`);
          const [outbox] = await tx
            .insert(telegramOutbox)
            .values({
              userId: alert.userId,
              alertId: alert.id,
              chatId: row.chatId,
              text: firing.text(alert),
              createdAt: firing.now,
              nextAttemptAt: firing.now,
            })
            .returning({ id: telegramOutbox.id });
          recorded.push({ alert, outboxId: outbox?.id as number });
        }
        if (marks) await saveMarks(tx, marks);
        return recorded;
      }),
  };
}
