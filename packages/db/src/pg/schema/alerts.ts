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
    metric: text("metric").notNull().default("spread"),
    hysteresis: doublePrecision("hysteresis"),
    webhookNotify: boolean("webhook_notify").notNull().default(false),
    lastFiredSide: text("last_fired_side"),
    disabledReason: text("disabled_reason"),
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

/** Every firing and held crossing: the alerts' History (see the SQLite schema's alert-firings.ts). */
export const alertFirings = pgTable(
  "alert_firings",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    alertId: integer("alert_id").references(() => alerts.id, { onDelete: "set null" }),
    symbol: text("symbol").notNull(),
    metric: text("metric").notNull(),
    value: doublePrecision("value").notNull(),
    threshold: doublePrecision("threshold").notNull(),
    direction: text("direction").notNull(),
    state: text("state").notNull(),
    source: text("source").notNull().default("server"),
    note: text("note"),
    firedAt: epochMs("fired_at").notNull(),
    createdAt: epochMs("created_at").notNull(),
  },
  (table) => [index("alert_firings_user_fired_idx").on(table.userId, table.firedAt, table.id)],
);

/** A user's webhook (see the SQLite schema's webhooks.ts). */
export const userWebhooks = pgTable("user_webhooks", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  url: text("url").notNull(),
  secret: text("secret").notNull(),
  updatedAt: epochMs("updated_at").notNull(),
});
