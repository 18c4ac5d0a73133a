import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import BetterSqlite3 from "better-sqlite3";
import { drizzle as sqliteDrizzle } from "drizzle-orm/better-sqlite3";
import { migrate as sqliteMigrate } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as pgDrizzle } from "drizzle-orm/node-postgres";
import { migrate as pgMigrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { createDatabase } from "../testing/postgres.ts";
import { STORE_KINDS, type StoreKind } from "../testing/stores.ts";
import { openStore } from "./open.ts";
import type { Store } from "./store.ts";

const FOLDERS = { sqlite: "../../drizzle", postgres: "../../drizzle-pg" };

/** A copy of an engine's migrations with only the first `count` of them in its journal. */
function firstMigrations(kind: StoreKind, dir: string, count: number): string {
  const folder = join(dir, "migrations");
  cpSync(fileURLToPath(new URL(FOLDERS[kind], import.meta.url)), folder, { recursive: true });
  const journalFile = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, count);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

/** Rows as the release before the renames wrote them: the same SQL on both engines. */
const OLD_ROWS = [
  "INSERT INTO users (username, username_key, password_hash, created_at) VALUES ('alice', 'alice', 'h', 1)",
  `INSERT INTO alerts (user_id, commodity_type, threshold, telegram_notification_count, created_at,
     updated_at) VALUES (1, 'GC_BUY', 100, 2, 1, 1)`,
  "INSERT INTO spread_marks (symbol, spread, at) VALUES ('GC_BUY|zscore', 2.5, 3)",
  `INSERT INTO telegram_outbox (user_id, alert_id, chat_id, text, created_at, next_attempt_at)
     VALUES (1, 1, 'chat', 'hello', 4, 4)`,
];

/** A database of `kind` at the release before the renames, holding OLD_ROWS; then opened. */
async function upgraded(
  kind: StoreKind,
  dir: string,
): Promise<{ store: Store; done(): Promise<void> }> {
  if (kind === "sqlite") {
    const file = join(dir, "old.sqlite");
    const sqlite = new BetterSqlite3(file);
    sqliteMigrate(sqliteDrizzle({ client: sqlite }), {
      migrationsFolder: firstMigrations(kind, dir, 9),
    });
    for (const statement of OLD_ROWS) sqlite.exec(statement);
    sqlite.close();
    const store = await openStore({ kind, file });
    return { store, done: () => store.close() };
  }
  const database = await createDatabase(inject("postgresUrl"));
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await pgMigrate(pgDrizzle({ client }), { migrationsFolder: firstMigrations(kind, dir, 2) });
    for (const statement of OLD_ROWS) await client.query(statement);
  } finally {
    await client.end();
  }
  const store = await openStore({ kind, url: database.url });
  return {
    store,
    async done() {
      await store.close();
      await database.drop();
    },
  };
}

describe.each(STORE_KINDS)("migrations (%s)", (kind) => {
  it("renaming the outbox, a mark's value and the firing count keeps every row", async () => {
    const dir = mkdtempSync(join(tmpdir(), "spreadwatch-renames-"));
    const { store, done } = await upgraded(kind, dir);
    try {
      expect(await store.alerts.find(1, 1)).toMatchObject({ serverFiringCount: 2 });
      expect(await store.spreadMarks.list()).toEqual([
        { symbol: "GC_BUY|zscore", value: 2.5, at: 3 },
      ]);
      expect(await store.outbox.list()).toMatchObject([
        { id: 1, text: "hello", channel: "telegram" },
      ]);
      // The renamed table's id sequence goes on after the old rows.
      await store.telegramLinks.save(1, "chat", 5);
      await store.users.setPermission(1, "alerts_enabled", true);
      await store.alerts.update(1, 1, { telegramNotify: true, maxNotifications: 5 }, 5);
      const [fired] = await store.alerts.recordFirings([
        {
          alertId: 1,
          symbol: "GC_BUY",
          metric: "spread",
          value: 101,
          threshold: 100,
          direction: "above",
          at: 6,
          now: 6,
          text: (alert) => `count ${alert.serverFiringCount}`,
          webhookBody: () => "{}",
        },
      ]);
      expect(fired?.outbox).toEqual([{ channel: "telegram", id: 2 }]);
      expect(fired?.alert.serverFiringCount).toBe(3);
    } finally {
      await done();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
