import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users.ts";

/** A spread alert (spec §3). Browser firings and Telegram firings are counted separately. */
export const alerts = sqliteTable(
  "alerts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    commodityType: text("commodity_type").notNull(),
    threshold: real("threshold").notNull(),
    direction: text("direction").notNull().default("reaches"),
    soundId: text("sound_id").notNull().default("beep"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    telegramNotify: integer("telegram_notify", { mode: "boolean" }).notNull().default(false),
    /** The one notification limit (1–5); the spec's maxNotifications and telegramMaxNotifications. */
    maxNotifications: integer("max_notifications").notNull().default(1),
    telegramNotificationCount: integer("telegram_notification_count").notNull().default(0),
    notificationCount: integer("notification_count").notNull().default(0),
    lastTriggered: integer("last_triggered"),
    lastTelegramTriggered: integer("last_telegram_triggered"),
    /** What the threshold is compared with: "spread" (the spec's), "zscore" or "percentile". */
    metric: text("metric").notNull().default("spread"),
    /**
     * Re-arm distance in the metric's units: after a firing the alert fires again only once the
     * value has moved back this far from the threshold. Null: re-arms on the next crossing back.
     */
    hysteresis: real("hysteresis"),
    webhookNotify: integer("webhook_notify", { mode: "boolean" }).notNull().default(false),
    /** The side the last server firing crossed into ("above" | "below"): where re-arming starts. */
    lastFiredSide: text("last_fired_side"),
    /** Why the server switched the alert off (e.g. its limit), shown until it is re-enabled. */
    disabledReason: text("disabled_reason"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [
    index("alerts_user_id_idx").on(table.userId),
    index("alerts_commodity_enabled_idx").on(table.commodityType, table.enabled),
  ],
);
