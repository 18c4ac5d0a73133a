import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { keepCompiledStatements } from "./statement-cache.ts";

let sqlite: BetterSqlite3.Database;

beforeEach(() => {
  sqlite = new BetterSqlite3(":memory:");
  keepCompiledStatements(sqlite);
  sqlite.exec("CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (2, 'y');");
});

afterEach(() => sqlite.close());

describe("keepCompiledStatements", () => {
  it("hands back the statement compiled before for the same SQL", () => {
    const first = sqlite.prepare("SELECT a FROM t WHERE a = ?");
    expect(sqlite.prepare("SELECT a FROM t WHERE a = ?")).toBe(first);
    expect(sqlite.prepare("SELECT b FROM t WHERE a = ?")).not.toBe(first);
  });

  it("hands it back out of raw mode, as a new statement starts", () => {
    expect(sqlite.prepare("SELECT a, b FROM t WHERE a = ?").raw().get(1)).toEqual([1, "x"]);
    expect(sqlite.prepare("SELECT a, b FROM t WHERE a = ?").get(1)).toEqual({ a: 1, b: "x" });
  });

  it("compiles a fresh one while the kept one is being iterated", () => {
    const seen: unknown[] = [];
    for (const row of sqlite.prepare("SELECT a FROM t ORDER BY a").iterate()) {
      seen.push(row, sqlite.prepare("SELECT a FROM t ORDER BY a").all());
    }
    expect(seen).toEqual([{ a: 1 }, [{ a: 1 }, { a: 2 }], { a: 2 }, [{ a: 1 }, { a: 2 }]]);
  });

  it("runs writes through a kept statement each time", () => {
    const insert = "INSERT INTO t VALUES (?, ?)";
    sqlite.prepare(insert).run(3, "z");
    sqlite.prepare(insert).run(4, "w");
    expect(sqlite.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 4 });
  });
});
