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

describe.each(STORE_KINDS)("candles (%s)", (kind) => {
  const current = useStore(kind);

  it("merges a bucket written twice: open stays, high/low widen, close moves on", async () => {
    const { store } = current();
    await store.candles.save([candle(60_000, 100)]);
    await store.candles.save([
      { ...candle(60_000, 100), open: 1, high: 105, low: 99.5, close: 104 },
    ]);
    // The same bucket twice in one batch, too (a restart's forming candle and its close).
    await store.candles.save([
      { ...candle(120_000, 10), high: 11 },
      { ...candle(120_000, 10), open: 0, high: 12, low: 8, close: 7 },
    ]);
    expect(await store.candles.all("GOLD_SPREAD", "1m")).toEqual([
      { timestamp: 60_000, open: 100, high: 105, low: 99, close: 104 },
      { timestamp: 120_000, open: 10, high: 12, low: 8, close: 7 },
    ]);
  });

  it("reads the most recent candles of a range oldest first, per symbol and timeframe", async () => {
    const { store } = current();
    const minutes = Array.from({ length: 10 }, (_, i) => candle(i * 60_000, i));
    await store.candles.save([
      ...minutes,
      candle(0, 50, "1h"),
      { ...candle(0, 7), symbol: "OTHER" },
    ]);
    const recent = await store.candles.recent({
      symbol: "GOLD_SPREAD",
      timeframe: "1m",
      from: 2 * 60_000,
      to: 8 * 60_000,
      limit: 3,
    });
    expect(recent.map((c) => c.timestamp / 60_000)).toEqual([5, 6, 7]);
    expect(await store.candles.all("GOLD_SPREAD", "1m")).toHaveLength(10);
    expect(await store.candles.has("1h")).toBe(true);
    expect(await store.candles.has("1d")).toBe(false);
    expect(await store.candles.prune("1m", 4 * 60_000)).toBe(5);
    expect((await store.candles.all("GOLD_SPREAD", "1m")).map((c) => c.timestamp / 60_000)).toEqual(
      [4, 5, 6, 7, 8, 9],
    );
    expect(await store.candles.all("GOLD_SPREAD", "1h")).toHaveLength(1);
  });

  it("saves a batch larger than one INSERT takes", async () => {
    const { store } = current();
    const many = Array.from({ length: 6_000 }, (_, i) => candle(i * 60_000, i));
    await store.candles.save(many);
    expect(await store.candles.all("GOLD_SPREAD", "1m")).toHaveLength(6_000);
  });
});
