import { type Column, type SQL, sql } from "drizzle-orm";

/** `column` starts with `prefix`, compared exactly (LIKE would read `_` and `%` as wildcards). */
export const startsWith = (column: Column, prefix: string): SQL =>
  sql`substr(${column}, 1, ${prefix.length}) = ${prefix}`;
