import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Small pieces of server state every instance must see the same way (the day's Kite access
 * token), kept in the database instead of a file one box owns.
 */
export const keyValues = sqliteTable("key_values", {
  key: text("key").primaryKey(),
  /** JSON, as the caller wrote it. */
  value: text("value").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
