import { describe, expect, it } from "vitest";
import { STORE_KINDS, useStore } from "../testing/stores.ts";

const M = 60_000;
const T = 1_795_000_000_000 - (1_795_000_000_000 % M);
const minute = (i: number, close: number) => ({
  timestamp: T + i * M,
  open: close - 1,
  high: close + 2,
  low: close - 2,
  close,
});

describe.each(STORE_KINDS)("contract candles (%s)", (kind) => {
  const current = useStore(kind);

  it("a fetched or simulated minute never replaces a recorded one; it only fills absent minutes", async () => {
    const { store } = current();
    expect(
      await store.contractCandles.write("GOLD", "GOLD26DECFUT", "recorded", [minute(1, 100)]),
    ).toBe(1);
    // Kite's past of minutes 0..2: minute 1 was recorded here and stays as recorded.
    expect(
      await store.contractCandles.write("GOLD", "GOLD26DECFUT", "kite", [
        minute(0, 90),
        minute(1, 91),
        minute(2, 92),
      ]),
    ).toBe(2);
    const rows = await store.contractCandles.range("GOLD26DECFUT", T, T + 3 * M);
    expect(rows.map((r) => [r.timestamp - T, r.close, r.source])).toEqual([
      [0, 90, "kite"],
      [M, 100, "recorded"],
      [2 * M, 92, "kite"],
    ]);
  });

  it("a recorded minute merges into a recorded one and takes over a fetched one", async () => {
    const { store } = current();
    await store.contractCandles.write("GOLD", "GOLD26DECFUT", "recorded", [minute(0, 100)]);
    await store.contractCandles.write("GOLD", "GOLD26DECFUT", "recorded", [
      { timestamp: T, open: 500, high: 120, low: 95, close: 110 },
    ]);
    await store.contractCandles.write("GOLD", "GOLD26DECFUT", "yahoo", [minute(1, 50)]);
    await store.contractCandles.write("GOLD", "GOLD26DECFUT", "recorded", [minute(1, 60)]);
    const rows = await store.contractCandles.range("GOLD26DECFUT", T, T + 2 * M);
    expect(rows).toEqual([
      { timestamp: T, open: 99, high: 120, low: 95, close: 110, source: "recorded" },
      { ...minute(1, 60), source: "recorded" },
    ]);
  });

  it("keeps contracts apart, whichever selector quoted them, and tells what each covers", async () => {
    const { store } = current();
    // GOLD26FEBFUT as GOLD@next, then as GOLD after the roll; GOLD26DECFUT as GOLD before.
    await store.contractCandles.write("GOLD", "GOLD26DECFUT", "simulated", [
      minute(0, 1),
      minute(1, 2),
    ]);
    await store.contractCandles.write("GOLD@next", "GOLD27FEBFUT", "simulated", [
      minute(0, 5),
      minute(1, 6),
    ]);
    await store.contractCandles.write("GOLD", "GOLD27FEBFUT", "recorded", [minute(2, 7)]);
    expect(
      (await store.contractCandles.range("GOLD27FEBFUT", T, T + 3 * M)).map((r) => r.close),
    ).toEqual([5, 6, 7]);
    // The same minutes as columns, [from, to) as `range`.
    const columns = await store.contractCandles.closes("GOLD27FEBFUT", T + M, T + 3 * M);
    expect([...columns.times]).toEqual([T + M, T + 2 * M]);
    expect([...columns.closes]).toEqual([6, 7]);
    // What the statistics ask at start, by index: the contract GOLD quoted last, and its last minute.
    expect(await store.contractCandles.latestContract("GOLD")).toBe("GOLD27FEBFUT");
    expect(await store.contractCandles.latestContract("GOLD@next")).toBe("GOLD27FEBFUT");
    expect(await store.contractCandles.latestContract("SILVER")).toBeUndefined();
    expect(await store.contractCandles.lastMinute("GOLD26DECFUT")).toBe(T + M);
    expect(await store.contractCandles.lastMinute("GOLD27FEBFUT")).toBe(T + 2 * M);
    expect(await store.contractCandles.lastMinute("SILVER26DECFUT")).toBeUndefined();
    expect(await store.contractCandles.coverage("GOLD")).toEqual([
      { contract: "GOLD26DECFUT", from: T, to: T + M, minutes: 2 },
      { contract: "GOLD27FEBFUT", from: T, to: T + 2 * M, minutes: 3 },
    ]);
    expect((await store.contractCandles.coverage("GOLD@next")).map((c) => c.contract)).toEqual([
      "GOLD27FEBFUT",
    ]);
    expect(await store.contractCandles.prune(T + M)).toBe(2);
    expect((await store.contractCandles.coverage()).map((c) => c.minutes)).toEqual([1, 2]);
  });
});
