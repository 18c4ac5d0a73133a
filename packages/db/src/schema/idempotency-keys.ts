import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users.ts";

/**
 * A create a user asked for under an Idempotency-Key, with the answer it got, so a double
 * submit or a retry gets the same answer instead of a second record. Kept for a day.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** The procedure and a digest of its input: the same key with another request is refused. */
    fingerprint: text("fingerprint").notNull(),
    /** The JSON answer of the first request, replayed as is. */
    response: text("response").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.key] }),
    index("idempotency_keys_created_at_idx").on(table.createdAt),
  ],
);
