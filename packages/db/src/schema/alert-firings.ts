import { index, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { alerts } from "./alerts.ts";
import { users } from "./users.ts";

/**
 * Every firing of an alert, and every crossing held back (a stale leg, a closed market): the
 * alerts' History. Deliveries per channel are the outbox rows that point here (firing_id);
 * a firing made in a browser (source "browser") has the browser's sound as its only channel.
 */
export const alertFirings = sqliteTable(
  "alert_firings",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Kept (null) when the alert is deleted: the history stays true. */
    alertId: integer("alert_id").references(() => alerts.id, { onDelete: "set null" }),
    symbol: text("symbol").notNull(),
    metric: text("metric").notNull(),
    value: real("value").notNull(),
    threshold: real("threshold").notNull(),
    /** The side crossed into: "above" (value ≥ threshold) or "below". */
    direction: text("direction").notNull(),
    /** "fired" or "held". */
    state: text("state").notNull(),
    /** "server" or "browser". */
    source: text("source").notNull().default("server"),
    /** Why a crossing was held, or a remark on a firing (e.g. the limit it reached). */
    note: text("note"),
    /** The quote time of the crossing. */
    firedAt: integer("fired_at").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [index("alert_firings_user_fired_idx").on(table.userId, table.firedAt, table.id)],
);
