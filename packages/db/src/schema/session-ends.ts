import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Why a session stopped being valid, kept for a while after its `sessions` row is gone, so the
 * browser still holding its cookie can be told "you signed in elsewhere" rather than just "401".
 */
export const sessionEnds = sqliteTable(
  "session_ends",
  {
    sessionId: text("session_id").primaryKey(),
    userId: integer("user_id").notNull(),
    reason: text("reason", {
      enum: ["replaced", "password_changed", "user_deleted", "expired", "logged_out"],
    }).notNull(),
    endedAt: integer("ended_at").notNull(),
  },
  (table) => [index("session_ends_ended_at_idx").on(table.endedAt)],
);
