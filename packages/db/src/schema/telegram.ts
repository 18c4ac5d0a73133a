import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { alertFirings } from "./alert-firings.ts";
import { alerts } from "./alerts.ts";
import { users } from "./users.ts";

/** A user's confirmed Telegram chat: stored only after Telegram accepted a message to it. */
export const telegramLinks = sqliteTable("telegram_links", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  chatId: text("chat_id").notNull(),
  connectedAt: integer("connected_at").notNull(),
});

/**
 * Messages to deliver, Telegram's and webhooks' (the table kept its first name). A firing writes its row in the same transaction as the alert's
 * count, and the sender marks it sent, so a restart resends only what was never delivered.
 */
export const telegramOutbox = sqliteTable(
  "telegram_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    alertId: integer("alert_id").references(() => alerts.id, { onDelete: "set null" }),
    /** "telegram" or "webhook". */
    channel: text("channel").notNull().default("telegram"),
    /** The firing this message tells of (its History entry); webhooks derive their Idempotency-Key from it. */
    firingId: integer("firing_id").references(() => alertFirings.id, { onDelete: "set null" }),
    /** Telegram's chat; empty for a webhook, whose URL and secret are read at send time. */
    chatId: text("chat_id").notNull(),
    /** Telegram's text, or a webhook's JSON body (signed as is, byte for byte, on every retry). */
    text: text("text").notNull(),
    createdAt: integer("created_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    sentAt: integer("sent_at"),
    /** Set when Telegram refused the message for good (bot blocked, chat gone): no more retries. */
    failedAt: integer("failed_at"),
    lastError: text("last_error"),
    /** The instance sending the row; with claimedUntil, a lease that outlives a dead sender. */
    claimedBy: text("claimed_by"),
    claimedUntil: integer("claimed_until"),
  },
  (table) => [
    index("telegram_outbox_pending_idx").on(table.sentAt, table.failedAt, table.nextAttemptAt),
    index("telegram_outbox_firing_idx").on(table.firingId),
  ],
);
