import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../testing.ts";
import { openDatabase } from "./connection.ts";
import { sqliteStore } from "./store.ts";

let test: TestDatabase | undefined;
afterEach(() => {
  test?.cleanup();
  test = undefined;
});

describe("openDatabase", () => {
  it("applies the committed migrations to a fresh file", () => {
    test = createTestDatabase();
    const tables = test.sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all();
    expect(tables).toEqual(expect.arrayContaining(["users", "sessions"]));
  });

  it("sets the pragmas: WAL, foreign keys, busy timeout, synchronous NORMAL", () => {
    test = createTestDatabase();
    expect(test.sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(test.sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(test.sqlite.pragma("busy_timeout", { simple: true })).toBe(5000);
    expect(test.sqlite.pragma("synchronous", { simple: true })).toBe(1);
  });

  it("creates a missing parent directory and keeps data across close and reopen", async () => {
    const dir = mkdtempSync(join(tmpdir(), "spreadwatch-db-"));
    try {
      const file = join(dir, "nested", "data", "spreadwatch.sqlite");
      const first = openDatabase(file);
      await sqliteStore(first).users.create({ username: "alice", passwordHash: "s:h" });
      first.close();
      first.close();

      // Reopening runs the migrator again; it must see them applied and leave data alone.
      const second = sqliteStore(openDatabase(file));
      expect(await second.users.count()).toBe(1);
      expect((await second.users.findByUsername("alice"))?.passwordHash).toBe("s:h");
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
