import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DatabaseHandle, openDatabase } from "./sqlite/connection.ts";
import { sqliteStore } from "./sqlite/store.ts";
import type { Store } from "./store/store.ts";

export interface TestDatabase extends DatabaseHandle {
  /** The SQLite file, for tests that reopen it. */
  file: string;
  /** Closes the connection and removes the temp directory with the file and its WAL. */
  cleanup(): void;
}

/** A fresh temp-file database with the real migrations applied (a file, so WAL is real too). */
export function createTestDatabase(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), "spreadwatch-db-"));
  const file = join(dir, "test.sqlite");
  const handle = openDatabase(file);
  return {
    ...handle,
    file,
    cleanup() {
      handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestStore {
  store: Store;
  /** The SQLite file, for tests that reopen it. */
  file: string;
  cleanup(): Promise<void>;
}

/** The async port on a fresh temp-file SQLite database: what the api's tests start from. */
export function createTestStore(): TestStore {
  const database = createTestDatabase();
  const store = sqliteStore(database);
  return {
    store,
    file: database.file,
    async cleanup() {
      await store.close();
      database.cleanup();
    },
  };
}

export { type SeededFiring, seedFirings } from "./testing/firings.ts";
export { queueTelegramFirings } from "./testing/outbox.ts";
// A second connection beside a running server's, for tests that age rows by hand.
export { openDatabase };
