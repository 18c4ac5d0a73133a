import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DatabaseHandle, openDatabase } from "./connection.ts";

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
