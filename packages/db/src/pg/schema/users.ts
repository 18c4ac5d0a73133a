import { bigint, boolean, integer, pgTable, text } from "drizzle-orm/pg-core";

/** Epoch ms everywhere, as in the SQLite schema: `bigint` in number mode (ms outgrow int4). */
export const epochMs = (name: string) => bigint(name, { mode: "number" });

export const users = pgTable("users", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  username: text("username").notNull(),
  // The lower-cased username: uniqueness without regard to case is the index's job, not the app's.
  usernameKey: text("username_key").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  isAdmin: boolean("is_admin").notNull().default(false),
  alertsEnabled: boolean("alerts_enabled").notNull().default(false),
  createdAt: epochMs("created_at").notNull(),
});
