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
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [
    index("alerts_user_id_idx").on(table.userId),
    index("alerts_commodity_enabled_idx").on(table.commodityType, table.enabled),
  ],
);
