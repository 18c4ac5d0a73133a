import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import BetterSqlite3 from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { expect, it } from "vitest";
import { openDatabase } from "./connection.ts";

const migrations = fileURLToPath(new URL("../../drizzle", import.meta.url));

/** A database as a release with only the first `count` migrations left it. */
function migrateUpTo(file: string, dir: string, count: number): void {
  const folder = join(dir, "migrations");
  cpSync(migrations, folder, { recursive: true });
  const journalFile = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, count);
  writeFileSync(journalFile, JSON.stringify(journal));
  const sqlite = new BetterSqlite3(file);
  migrate(drizzle({ client: sqlite }), { migrationsFolder: folder });
  sqlite.close();
}

it("rebuilding the hand-made WITHOUT ROWID candle table keeps every stored candle", () => {
  const dir = mkdtempSync(join(tmpdir(), "spreadwatch-migrate-"));
  try {
    const file = join(dir, "old.sqlite");
    migrateUpTo(file, dir, 6);
    const old = new BetterSqlite3(file);
    const before = old
      .prepare("SELECT sql FROM sqlite_master WHERE name = 'spread_candles'")
      .get() as { sql: string };
    expect(before.sql).toMatch(/WITHOUT ROWID/);
    old.exec("INSERT INTO spread_candles VALUES ('GOLD', '1m', 60000, 1, 2, 0.5, 1.5)");
    old.close();

    const upgraded = openDatabase(file);
    expect(upgraded.sqlite.prepare("SELECT * FROM spread_candles").all()).toEqual([
      { symbol: "GOLD", timeframe: "1m", timestamp: 60000, open: 1, high: 2, low: 0.5, close: 1.5 },
    ]);
    const after = upgraded.sqlite
      .prepare("SELECT sql FROM sqlite_master WHERE name = 'spread_candles'")
      .get() as { sql: string };
    expect(after.sql).not.toMatch(/WITHOUT ROWID/);
    upgraded.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// drizzle cannot express WITHOUT ROWID, and the hand-edited 0003 left drizzle-kit's snapshot
// describing another table than the file made; 0006 rebuilt it as the schema says.
it("spread candles are stored as the drizzle schema describes them, keyed by (symbol, timeframe, timestamp)", () => {
  const dir = mkdtempSync(join(tmpdir(), "spreadwatch-migrate-"));
  const db = openDatabase(join(dir, "new.sqlite"));
  try {
    const ddl = db.sqlite
      .prepare("SELECT sql FROM sqlite_master WHERE name = 'spread_candles'")
      .get() as { sql: string };
    expect(ddl.sql).not.toMatch(/WITHOUT ROWID/);
    expect(ddl.sql).toMatch(/PRIMARY KEY\(`symbol`, `timeframe`, `timestamp`\)/);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
