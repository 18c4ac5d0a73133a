import { fileURLToPath } from "node:url";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import { drizzle, type NodePgQueryResultHKT } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase } from "drizzle-orm/pg-core";
import pg from "pg";
import * as schema from "./schema.ts";

/** The pool's database or a transaction on it: every query function takes either. */
export type PgDb = PgDatabase<
  NodePgQueryResultHKT,
  typeof schema,
  ExtractTablesWithRelations<typeof schema>
>;

const migrationsFolder = fileURLToPath(new URL("../../drizzle-pg", import.meta.url));

/** Any fixed number: instances starting together take turns at migrating. */
const MIGRATION_LOCK = 7_361_110_001;

export async function openPostgres(url: string): Promise<{ db: PgDb; pool: pg.Pool }> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client's connection dying (server restart) must not crash the process.
  pool.on("error", () => {});
  try {
    const client = await pool.connect();
    try {
      await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
      await migrate(drizzle({ client, schema }), { migrationsFolder });
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
      client.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }
  return { db: drizzle({ client: pool, schema }), pool };
}

/** True when `error` (or what it wraps) is a unique_violation. */
export function isPgUniqueViolation(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/** How many rows an UPDATE or DELETE touched. */
export async function changed(query: PromiseLike<{ rowCount: number | null }>): Promise<number> {
  return (await query).rowCount ?? 0;
}
