import { afterEach, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../testing.ts";
import { closesSql, pruneSql } from "./candles.ts";
import { CONTRACT_PRUNE_SQL } from "./contract-candles.ts";
import { sqliteStore } from "./store.ts";

let database: TestDatabase | undefined;
afterEach(() => {
  database?.cleanup();
  database = undefined;
});

it("reads a range of closes from the covering index alone, oldest first and exact", async () => {
  database = createTestDatabase();
  const store = sqliteStore(database);
  // Doubles that need all 17 digits, written newest first.
  const closes = Array.from({ length: 3000 }, (_, i) => (i + 1) / 3 - 0.1 * i);
  await store.candles.save(
    closes
      .map((close, i) => ({
        symbol: "GC_BUY",
        timeframe: "1m",
        timestamp: i * 60_000,
        open: 0,
        high: 0,
        low: 0,
        close,
      }))
      .reverse(),
  );
  const read = await store.candles.closes({
    symbol: "GC_BUY",
    timeframe: "1m",
    from: 0,
    to: 3000 * 60_000,
  });
  expect([...read.times]).toEqual(closes.map((_, i) => i * 60_000));
  expect([...read.closes]).toEqual(closes);
  // The plan: SQLite never visits the table's rows for this read (docs/backtest.md, "Speed").
  const plan = database.sqlite
    .prepare(`EXPLAIN QUERY PLAN ${closesSql("spread_candles")}`)
    .all("GC_BUY", "1m", 0, 1) as { detail: string }[];
  expect(plan.map((step) => step.detail).join("\n")).toMatch(
    /USING COVERING INDEX spread_candles_closes_idx/,
  );
});

it("prunes through each table's key, never reading the whole table", () => {
  database = createTestDatabase();
  // The recorder prunes at every start and every few hours; a year of history is gigabytes.
  const plans = [
    [pruneSql("spread_candles"), ["1m", 0]],
    [pruneSql("instrument_candles"), ["1m", 0]],
    [CONTRACT_PRUNE_SQL, [0]],
  ] as const;
  for (const [sql, parameters] of plans) {
    const plan = (
      database.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as {
        detail: string;
      }[]
    )
      .map((step) => step.detail)
      .join("\n");
    expect(plan).toMatch(
      /^SEARCH (spread|instrument|contract)_candles USING .*INDEX .*timestamp<\?\)/m,
    );
    expect(plan).not.toMatch(/^SCAN (spread|instrument|contract)_candles/m);
  }
});
