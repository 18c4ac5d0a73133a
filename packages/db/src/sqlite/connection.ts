import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import BetterSqlite3 from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "./schema.ts";
import { keepCompiledStatements } from "./statement-cache.ts";

/** The drizzle database every query function takes first. */
export type Database = BetterSQLite3Database<typeof schema> & { $client: BetterSqlite3.Database };

export interface DatabaseHandle {
  db: Database;
  /** The raw connection, for pragmas and diagnostics; queries go through `db`. */
  sqlite: BetterSqlite3.Database;
  close(): void;
}

const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));

/** Opens (creating if needed) the SQLite file and brings its schema up to the committed migrations. */
export function openDatabase(file: string): DatabaseHandle {
  mkdirSync(dirname(file), { recursive: true });
  const sqlite = new BetterSqlite3(file);
  try {
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
    // Safe with WAL: a power cut may lose the last commits but never corrupts the file.
    sqlite.pragma("synchronous = NORMAL");
    keepCompiledStatements(sqlite);
    const db = drizzle({ client: sqlite, schema });
    migrate(db, { migrationsFolder });
    return {
      db,
      sqlite,
      close() {
        if (sqlite.open) sqlite.close();
      },
    };
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

/** True when `error` (or what it wraps) is a UNIQUE constraint failure, e.g. a taken username. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === "SQLITE_CONSTRAINT_UNIQUE") return true;
  }
  return false;
}

/** How many rows an UPDATE or DELETE touched. */
export const changed = (query: { run(): { changes: number } }): number => query.run().changes;
