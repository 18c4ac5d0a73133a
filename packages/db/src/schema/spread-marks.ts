import { integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The last spread the alert engine saw per symbol: every alert's side of its threshold follows
 * from it, so a new leader starts from here and neither fires a crossing twice nor invents one.
 */
export const spreadMarks = sqliteTable("spread_marks", {
  symbol: text("symbol").primaryKey(),
  spread: real("spread").notNull(),
  /** The quote time of that spread, epoch ms. */
  at: integer("at").notNull(),
});
