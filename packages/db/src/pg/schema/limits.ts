import { index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { epochMs, users } from "./users.ts";

/** Login attempts let through to the password check (see the SQLite schema). */
export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    usernameKey: text("username_key").notNull(),
    address: text("address").notNull(),
    attemptedAt: epochMs("attempted_at").notNull(),
  },
  (table) => [
    index("login_attempts_pair_idx").on(table.usernameKey, table.address, table.attemptedAt),
    index("login_attempts_address_idx").on(table.address, table.attemptedAt),
    index("login_attempts_attempted_at_idx").on(table.attemptedAt),
  ],
);

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    response: text("response").notNull(),
    createdAt: epochMs("created_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.key] }),
    index("idempotency_keys_created_at_idx").on(table.createdAt),
  ],
);

export const keyValues = pgTable("key_values", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: epochMs("updated_at").notNull(),
});
