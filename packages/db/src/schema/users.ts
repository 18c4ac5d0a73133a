import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  username: text("username").notNull(),
  // The lower-cased username: uniqueness without regard to case is the index's job, not the app's.
  usernameKey: text("username_key").notNull().unique(),
  // scrypt "salt:hash"; the format belongs to the api, the database only stores it.
  passwordHash: text("password_hash").notNull(),
  isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
  alertsEnabled: integer("alerts_enabled", { mode: "boolean" }).notNull().default(false),
  createdAt: integer("created_at").notNull(),
});
