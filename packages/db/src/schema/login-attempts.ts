import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * One row per login attempt that was let through to the password check, written before the
 * check runs, so attempts still in flight count against the limit. A success deletes its
 * (username, address) rows; everything leaves once it is older than the window.
 */
export const loginAttempts = sqliteTable(
  "login_attempts",
  {
    id: integer("id").primaryKey(),
    /** The lower-cased username as typed: unknown usernames are limited like real ones. */
    usernameKey: text("username_key").notNull(),
    address: text("address").notNull(),
    attemptedAt: integer("attempted_at").notNull(),
  },
  (table) => [
    index("login_attempts_pair_idx").on(table.usernameKey, table.address, table.attemptedAt),
    index("login_attempts_address_idx").on(table.address, table.attemptedAt),
    index("login_attempts_attempted_at_idx").on(table.attemptedAt),
  ],
);
