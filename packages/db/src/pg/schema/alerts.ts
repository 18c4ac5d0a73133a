import { boolean, doublePrecision, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { epochMs, users } from "./users.ts";

/** A spread alert (spec §3); SQLite's `real` is a double, hence doublePrecision here. */
export const alerts = pgTable(
  "alerts",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    commodityType: text("commodity_type").notNull(),
    threshold: doublePrecision("threshold").notNull(),
    direction: text("direction").notNull().default("reaches"),
    soundId: text("sound_id").notNull().default("beep"),
    enabled: boolean("enabled").notNull().default(true),
    telegramNotify: boolean("telegram_notify").notNull().default(false),
    maxNotifications: integer("max_notifications").notNull().default(1),
    telegramNotificationCount: integer("telegram_notification_count").notNull().default(0),
    notificationCount: integer("notification_count").notNull().default(0),
    lastTriggered: epochMs("last_triggered"),
    lastTelegramTriggered: epochMs("last_telegram_triggered"),
    createdAt: epochMs("created_at").notNull(),
    updatedAt: epochMs("updated_at").notNull(),
  },
  (table) => [
    index("alerts_user_id_idx").on(table.userId),
    index("alerts_commodity_enabled_idx").on(table.commodityType, table.enabled),
  ],
);

/** The alert engine's last spread per symbol (see the SQLite schema's spread-marks.ts). */
export const spreadMarks = pgTable("spread_marks", {
  symbol: text("symbol").primaryKey(),
  spread: doublePrecision("spread").notNull(),
  at: epochMs("at").notNull(),
});
