import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, inject } from "vitest";
import { openDatabase } from "../sqlite/connection.ts";
import { outbox } from "../sqlite/schema.ts";
import { openStore } from "../store/open.ts";
import type { Store } from "../store/store.ts";
import { createDatabase } from "./postgres.ts";

export const STORE_KINDS = ["sqlite", "postgres"] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

export interface StoreUnderTest {
  store: Store;
  /**
   * Another instance on the same data. Postgres: a second pool. SQLite: the same store, since
   * embedded means one process with one connection (a second connection in the same process
   * would block its event loop in SQLite's busy wait while the first holds a transaction).
   */
  openAnother(): Promise<Store>;
  /**
   * Writes an outbox row directly, as a firing's transaction would: for tests of a channel's
   * claiming whose writer is not the test's subject. Returns its id.
   */
  queueOutbox(row: QueuedOutboxRow): Promise<number>;
  /**
   * Runs plain SQL beside the store (rows no store call writes or reads yet), with PostgreSQL's
   * $1… placeholders on both engines; a query's rows come back as the driver gives them
   * (PostgreSQL bigints as strings).
   */
  sql(statement: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
}

export interface QueuedOutboxRow {
  userId: number;
  channel: "telegram" | "webhook";
  chatId: string;
  text: string;
  createdAt: number;
  nextAttemptAt: number;
}

/** A second, short-lived connection on the file: fine while the store holds no transaction. */
function queueSqliteOutbox(file: string, row: QueuedOutboxRow): number {
  const handle = openDatabase(file);
  try {
    return handle.db.insert(outbox).values(row).returning().get().id;
  } finally {
    handle.close();
  }
}

/**
 * A store of the given kind for each test, empty at its start. SQLite: a fresh temp file per
 * test. Postgres: one database per test file (on the run's server), emptied between tests,
 * since creating and migrating a database per test would cost more than the tests.
 */
export function useStore(kind: StoreKind): () => StoreUnderTest {
  let current: StoreUnderTest | undefined;
  const others: Store[] = [];
  if (kind === "sqlite") {
    let dir = "";
    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), "spreadwatch-store-"));
      const file = join(dir, "test.sqlite");
      current = {
        store: await openStore({ kind: "sqlite", file }),
        openAnother: async () => (current as StoreUnderTest).store,
        queueOutbox: async (row) => queueSqliteOutbox(file, row),
        sql: async (statement, params = []) => {
          // PostgreSQL's $n placeholders as SQLite's ?, one value per occurrence.
          const values: unknown[] = [];
          const text = statement.replace(/\$(\d+)/g, (_, n) => {
            values.push(params[Number(n) - 1]);
            return "?";
          });
          const raw = new BetterSqlite3(file);
          try {
            const prepared = raw.prepare(text);
            if (prepared.reader) return prepared.all(...values) as Record<string, unknown>[];
            prepared.run(...values);
            return [];
          } finally {
            raw.close();
          }
        },
      };
      return async () => {
        await current?.store.close();
        rmSync(dir, { recursive: true, force: true });
      };
    });
  } else {
    let database: Awaited<ReturnType<typeof createDatabase>> | undefined;
    let store: Store | undefined;
    let admin: pg.Client | undefined;
    beforeAll(async () => {
      database = await createDatabase(inject("postgresUrl"));
      store = await openStore({ kind: "postgres", url: database.url });
      admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
    });
    beforeEach(async () => {
      const url = database?.url as string;
      const { rows } = await (admin as pg.Client).query<{ name: string }>(
        "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
      );
      const tables = rows.map((r) => `"${r.name}"`).join(", ");
      await (admin as pg.Client).query(`TRUNCATE ${tables} RESTART IDENTITY CASCADE`);
      current = {
        store: store as Store,
        openAnother: async () => {
          const another = await openStore({ kind: "postgres", url });
          others.push(another);
          return another;
        },
        queueOutbox: async (row) => {
          const { rows } = await (admin as pg.Client).query<{ id: number }>(
            `INSERT INTO outbox (user_id, channel, chat_id, text, created_at, next_attempt_at)
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
            [row.userId, row.channel, row.chatId, row.text, row.createdAt, row.nextAttemptAt],
          );
          return (rows[0] as { id: number }).id;
        },
        sql: async (statement, params) =>
          (await (admin as pg.Client).query(statement, params ? [...params] : undefined)).rows,
      };
      return async () => {
        await Promise.all(others.splice(0).map((s) => s.close()));
      };
    });
    afterAll(async () => {
      await admin?.end();
      await store?.close();
      await database?.drop();
    });
  }
  return () => {
    if (!current) throw new Error("useStore: no store outside a test");
    return current;
  };
}
