import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { epochMs, users } from "./users.ts";

/** One row per live login; a login deletes the user's other rows (one active session). */
export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: epochMs("created_at").notNull(),
    lastSeenAt: epochMs("last_seen_at").notNull(),
  },
  (table) => [index("sessions_user_id_idx").on(table.userId)],
);

/** Why a session ended, kept a while so its browser can be told (see the SQLite schema). */
export const sessionEnds = pgTable(
  "session_ends",
  {
    sessionId: text("session_id").primaryKey(),
    userId: integer("user_id").notNull(),
    reason: text("reason", {
      enum: ["replaced", "password_changed", "user_deleted", "expired", "logged_out"],
    }).notNull(),
    endedAt: epochMs("ended_at").notNull(),
  },
  (table) => [index("session_ends_ended_at_idx").on(table.endedAt)],
);
