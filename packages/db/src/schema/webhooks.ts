import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users.ts";

/** A user's webhook: every server firing of an alert with webhookNotify is POSTed here, signed. */
export const userWebhooks = sqliteTable("user_webhooks", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  url: text("url").notNull(),
  /** The HMAC-SHA256 key of X-Spreadwatch-Signature; the user's own, shown to them only. */
  secret: text("secret").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
