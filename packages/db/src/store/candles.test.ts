import { describe, expect, it } from "vitest";
import { STORE_KINDS, useStore } from "../testing/stores.ts";
import type { StoredCandle } from "./types.ts";

const candle = (timestamp: number, price: number, timeframe = "1m"): StoredCandle => ({
  symbol: "GOLD_SPREAD",
  timeframe,
  timestamp,
  open: price,
  high: price + 1,
  low: price - 1,
  close: price + 0.5,
});

// Spread candles and the instruments' mid candles are one shape in two tables.
const TABLES = ["candles", "instrumentCandles"] as const;
const CASES = STORE_KINDS.flatMap((kind) => TABLES.map((table) => [kind, table] as const));

describe.each(CASES)("candles (%s, %s)", (kind, table) => {
  const current = useStore(kind);
  const use = () => ({ candles: current().store[table] });

  it("merges a bucket written twice: open stays, high/low widen, close moves on", async () => {
    const { candles } = use();
    await candles.save([candle(60_000, 100)]);
    await candles.save([{ ...candle(60_000, 100), open: 1, high: 105, low: 99.5, close: 104 }]);
    // The same bucket twice in one batch, too (a restart's forming candle and its close).
    await candles.save([
      { ...candle(120_000, 10), high: 11 },
      { ...candle(120_000, 10), open: 0, high: 12, low: 8, close: 7 },
    ]);
    expect(await candles.all("GOLD_SPREAD", "1m")).toEqual([
      { timestamp: 60_000, open: 100, high: 105, low: 99, close: 104 },
      { timestamp: 120_000, open: 10, high: 12, low: 8, close: 7 },
    ]);
  });

  it("replaces a bucket as given when asked, other buckets untouched", async () => {
    const { candles } = use();
    await candles.save([candle(60_000, 100), candle(120_000, 10)]);
    await candles.replace([{ ...candle(60_000, 100), open: 90, high: 100.5, low: 89, close: 95 }]);
    expect(await candles.all("GOLD_SPREAD", "1m")).toEqual([
      { timestamp: 60_000, open: 90, high: 100.5, low: 89, close: 95 },
      { timestamp: 120_000, open: 10, high: 11, low: 9, close: 10.5 },
    ]);
  });

  it("reads every [timestamp, close] of a range oldest first, per symbol and timeframe", async () => {
    const { candles } = use();
    const minutes = Array.from({ length: 10 }, (_, i) => candle(i * 60_000, i));
    await candles.save([
      ...minutes.reverse(),
      candle(0, 50, "1h"),
      { ...candle(0, 7), symbol: "OTHER" },
    ]);
    const query = { symbol: "GOLD_SPREAD", timeframe: "1m", from: 2 * 60_000, to: 5 * 60_000 };
    const { times, closes } = await candles.closes(query);
    expect([...times]).toEqual([2 * 60_000, 3 * 60_000, 4 * 60_000]);
    expect([...closes]).toEqual([2.5, 3.5, 4.5]);
    // More rows than the first buffer holds: it grows and keeps every row.
    const many = Array.from({ length: 2500 }, (_, i) => candle(1e9 + i * 60_000, i));
    await candles.save(many);
    const all = await candles.closes({ ...query, from: 1e9, to: 2e9 });
    expect(all.times.length).toBe(2500);
    expect(all.times[2499]).toBe(1e9 + 2499 * 60_000);
    expect(all.closes[1234]).toBe(1234.5);
  });

  it("reads the most recent candles of a range oldest first, per symbol and timeframe", async () => {
    const { candles } = use();
    const minutes = Array.from({ length: 10 }, (_, i) => candle(i * 60_000, i));
    await candles.save([...minutes, candle(0, 50, "1h"), { ...candle(0, 7), symbol: "OTHER" }]);
    const recent = await candles.recent({
      symbol: "GOLD_SPREAD",
      timeframe: "1m",
      from: 2 * 60_000,
      to: 8 * 60_000,
      limit: 3,
    });
    expect(recent.map((c) => c.timestamp / 60_000)).toEqual([5, 6, 7]);
    expect(await candles.all("GOLD_SPREAD", "1m")).toHaveLength(10);
    expect(await candles.has("1h")).toBe(true);
    expect(await candles.has("1d")).toBe(false);
    expect(await candles.prune("1m", 4 * 60_000)).toBe(5);
    expect((await candles.all("GOLD_SPREAD", "1m")).map((c) => c.timestamp / 60_000)).toEqual([
      4, 5, 6, 7, 8, 9,
    ]);
    expect(await candles.all("GOLD_SPREAD", "1h")).toHaveLength(1);
  });

  it("saves a batch larger than one INSERT takes", async () => {
    const { candles } = use();
    const many = Array.from({ length: 6_000 }, (_, i) => candle(i * 60_000, i));
    await candles.save(many);
    expect(await candles.all("GOLD_SPREAD", "1m")).toHaveLength(6_000);
  });

  it("finds the oldest candle and removes every candle of given symbols, and nothing of the other table", async () => {
    const { candles } = use();
    const other = current().store[table === "candles" ? "instrumentCandles" : "candles"];
    await candles.save([
      candle(180_000, 3),
      candle(120_000, 2),
      { ...candle(0, 9), symbol: "KEEP" },
    ]);
    await candles.save([candle(60_000, 1, "1h")]);
    await other.save([candle(0, 5)]);
    expect(await candles.first("GOLD_SPREAD", "1m")).toEqual({
      timestamp: 120_000,
      open: 2,
      high: 3,
      low: 1,
      close: 2.5,
    });
    expect(await candles.first("NONE", "1m")).toBeUndefined();
    expect(await candles.remove([])).toBe(0);
    expect(await candles.remove(["GOLD_SPREAD", "NONE"])).toBe(3);
    expect(await candles.all("GOLD_SPREAD", "1m")).toEqual([]);
    expect(await candles.all("KEEP", "1m")).toHaveLength(1);
    expect(await other.all("GOLD_SPREAD", "1m")).toHaveLength(1);
  });
});
