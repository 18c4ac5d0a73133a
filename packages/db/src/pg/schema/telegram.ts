import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { alertFirings, alerts } from "./alerts.ts";
import { epochMs, users } from "./users.ts";

export const telegramLinks = pgTable("telegram_links", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  chatId: text("chat_id").notNull(),
  connectedAt: epochMs("connected_at").notNull(),
});

/** Messages to deliver; claimed by one sender at a time under a lease (see outbox.ts). */
export const telegramOutbox = pgTable(
  "telegram_outbox",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    alertId: integer("alert_id").references(() => alerts.id, { onDelete: "set null" }),
    channel: text("channel").notNull().default("telegram"),
    firingId: integer("firing_id").references(() => alertFirings.id, { onDelete: "set null" }),
    chatId: text("chat_id").notNull(),
    text: text("text").notNull(),
    createdAt: epochMs("created_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: epochMs("next_attempt_at").notNull(),
    sentAt: epochMs("sent_at"),
    failedAt: epochMs("failed_at"),
    lastError: text("last_error"),
    claimedBy: text("claimed_by"),
    claimedUntil: epochMs("claimed_until"),
  },
  (table) => [
    index("telegram_outbox_pending_idx").on(table.sentAt, table.failedAt, table.nextAttemptAt),
    index("telegram_outbox_firing_idx").on(table.firingId),
  ],
);
