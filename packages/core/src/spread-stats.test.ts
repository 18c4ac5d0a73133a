import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RollingSpreadStats, type SpreadStats } from "./spread-stats.ts";

const MIN = 60_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 20, 4, 0); // 09:30 IST

describe("RollingSpreadStats", () => {
  it("gives every figure of a small window, worked by hand", () => {
    const stats = new RollingSpreadStats(1);
    fill(stats, [10, 20, 30, 40]);
    // mean (10 + 20 + 30 + 40) / 4 = 25; deviations −15, −5, 5, 15
    // variance (225 + 25 + 25 + 225) / 4 = 125; std √125 = 11.180340
    // z(35) = 10 / 11.180340 = 0.894427; closes ≤ 35: 10, 20, 30 → 3/4 = 75 %
    const s = stats.stats(35);
    expect(s).toMatchObject({ n: 4, mean: 25, min: 10, max: 40, percentile: 75 });
    expect(s.std).toBeCloseTo(11.18034, 5);
    expect(s.z).toBeCloseTo(0.894427, 6);
    // The window ends where the latest candle (T0 + 3 min) ends and reaches back one day.
    expect([s.from, s.to]).toEqual([T0 + 4 * MIN - DAY, T0 + 4 * MIN]);
  });

  it("gives the 0th..100th percentiles, nearest rank, consistent with the percentile rank", () => {
    const stats = new RollingSpreadStats(1);
    expect(stats.quantiles()).toBeUndefined();
    fill(stats, [40, 10, 30, 20]);
    const q = stats.quantiles() as number[];
    expect(q).toHaveLength(101);
    // n = 4: the k-th is the close of rank ceil(k × 4 / 100): k 1..25 → 10, 26..50 → 20, …
    expect([q[0], q[1], q[25], q[26], q[50], q[51], q[75], q[76], q[100]]).toEqual([
      10, 10, 10, 20, 20, 30, 30, 40, 40,
    ]);
    // Percentile rank ≥ k exactly when the value is ≥ the k-th, for every k and value.
    for (const value of [5, 10, 15, 20, 25, 30, 35, 40, 45]) {
      const rank = stats.stats(value).percentile as number;
      for (let k = 1; k <= 100; k++) expect(rank >= k).toBe(value >= (q[k] as number));
    }
  });

  it("replaces the close of a candle it already holds", () => {
    const stats = new RollingSpreadStats(1);
    fill(stats, [10, 20, 30, 40]);
    expect(stats.add(T0 + MIN, 60)).toBe(true);
    // 10, 60, 30, 40: mean 35; deviations −25, 25, −5, 5; variance (625+625+25+25)/4 = 325
    // z(35) = 0; closes ≤ 35: 10, 30 → 50 %
    const s = stats.stats(35);
    expect(s).toMatchObject({ n: 4, mean: 35, z: 0, percentile: 50, min: 10, max: 60 });
    expect(s.std).toBeCloseTo(Math.sqrt(325), 9);
  });

  it("evicts closes older than the window, ignores older candles, inserts late ones in place", () => {
    const stats = new RollingSpreadStats(1);
    fill(stats, [10, 60, 30, 40]);
    stats.add(T0 + DAY + MIN, 50);
    // to = T0 + 1 day + 2 min, from = T0 + 2 min: 10 and 60 leave; 30, 40, 50 remain
    // mean 40, variance (100 + 0 + 100) / 3 = 66.667, std 8.164966; z(50) = 10 / 8.164966 = 1.224745
    let s = stats.stats(50);
    expect(s).toMatchObject({
      n: 3,
      mean: 40,
      min: 30,
      max: 50,
      percentile: 100,
      from: T0 + 2 * MIN,
    });
    expect(s.z).toBeCloseTo(1.224745, 6);
    expect(stats.add(T0 + MIN, 999)).toBe(false);
    expect(stats.add(T0 + 180 * MIN, 40)).toBe(true);
    // 30, 40, 40, 50: mean 40, variance (100 + 0 + 0 + 100) / 4 = 50
    s = stats.stats(40);
    expect(s).toMatchObject({ n: 4, mean: 40, z: 0, percentile: 75 });
    expect(s.std).toBeCloseTo(Math.sqrt(50), 9);
  });

  it("has no z when every close is equal, and nothing but n when empty", () => {
    const stats = new RollingSpreadStats(5);
    expect(stats.stats(1)).toEqual({ n: 0 });
    for (let i = 0; i < 3; i++) stats.add(T0 + i * MIN, 0.1 + 0.2);
    expect(stats.stats(0.3)).toMatchObject({ n: 3, std: 0, z: undefined, percentile: 0 });
    expect(stats.stats(0.30000000000000004)).toMatchObject({
      mean: 0.30000000000000004,
      percentile: 100,
    });
  });

  it("holds nothing for a window of no length", () => {
    for (const days of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      const stats = new RollingSpreadStats(days);
      expect(stats.add(T0, 1)).toBe(false);
      expect(stats.stats(1)).toEqual({ n: 0 });
    }
  });

  it("ignores non-finite closes and gives no z or percentile for a non-finite value", () => {
    const stats = new RollingSpreadStats(5);
    expect(stats.add(T0, Number.NaN)).toBe(false);
    stats.add(T0, 1);
    stats.add(T0 + MIN, 3);
    expect(stats.stats(Number.NaN)).toMatchObject({
      n: 2,
      mean: 2,
      std: 1,
      z: undefined,
      percentile: undefined,
    });
  });

  it("stays exact through the periodic recompute over 5,000 drifting closes", () => {
    const stats = new RollingSpreadStats(1);
    const closes: number[] = [];
    for (let i = 0; i < 5000; i++) {
      // A spread drifting from 500 to ~5,500 with a ±3 wiggle: shifts far from the first close.
      const close = 500 + i + 3 * Math.sin(i);
      closes.push(close);
      stats.add(T0 + i * MIN, close);
    }
    const kept = closes.slice(5000 - 1440); // one day of minutes
    expectClose(stats.stats(5200), naive(kept, 5200), 1e-9);
  });

  it("forgets the rounding of an evicted outlier (found by the property below)", () => {
    const stats = new RollingSpreadStats(1);
    stats.add(T0, 16.01);
    stats.add(T0 + DAY, 0.01); // evicts 16.01, whose d² of 256 stays in the sums' rounding
    stats.add(T0 + MIN, 0);
    // 0.01 and 0: mean 0.005, std 0.005 — to 1e-9, not 0.00499999999369
    const s = stats.stats(0);
    expect(Math.abs((s.std as number) - 0.005) / 0.005).toBeLessThan(1e-12);
    expect(s.z).toBeCloseTo(-1, 9);
  });

  it("matches a naive recomputation for tight clusters far from zero with outliers (property)", () => {
    const candle = fc.record({
      minute: fc.integer({ min: 0, max: 3 * 1440 }),
      close: fc.oneof(
        { arbitrary: fc.integer({ min: -5, max: 5 }).map((c) => 5000 + c / 100), weight: 9 },
        {
          arbitrary: fc.integer({ min: -2_000_000, max: 2_000_000 }).map((c) => c / 100),
          weight: 1,
        },
      ),
    });
    fc.assert(
      fc.property(fc.array(candle, { minLength: 1, maxLength: 400 }), (candles) => {
        const { stats, kept } = oneDayOf(candles);
        expectClose(stats.stats(5000.01), naive(kept, 5000.01), 1e-9);
      }),
      { numRuns: 200 },
    );
  });

  it("matches a naive recomputation over the same window (property)", () => {
    const candle = fc.record({
      minute: fc.integer({ min: 0, max: 4 * 1440 }),
      close: fc.integer({ min: -200_000, max: 200_000 }).map((c) => c / 100),
    });
    fc.assert(
      fc.property(
        fc.array(candle, { minLength: 1, maxLength: 300 }),
        fc.integer({ min: -200_000, max: 200_000 }).map((c) => c / 100),
        (candles, value) => {
          const { stats, kept, latest } = oneDayOf(candles);
          const s = stats.stats(value);
          expect([s.from, s.to]).toEqual([T0 + (latest + 1) * MIN - DAY, T0 + (latest + 1) * MIN]);
          expectClose(s, naive(kept, value), 1e-9);
        },
      ),
      { numRuns: 200 },
    );
  });
});

function fill(stats: RollingSpreadStats, closes: number[]): void {
  for (const [i, close] of closes.entries()) stats.add(T0 + i * MIN, close);
}

/**
 * A one-day window fed `candles` in their order, with what it must hold: the last close of each
 * minute, of the day up to the latest minute.
 */
function oneDayOf(candles: Array<{ minute: number; close: number }>) {
  const stats = new RollingSpreadStats(1);
  const byTime = new Map<number, number>();
  for (const { minute, close } of candles) {
    stats.add(T0 + minute * MIN, close);
    byTime.set(minute, close);
  }
  const latest = Math.max(...byTime.keys());
  const kept = [...byTime].filter(([m]) => m > latest - 1440).map(([, c]) => c);
  return { stats, kept, latest };
}

/** The definition, computed from scratch: two-pass variance. */
function naive(closes: number[], value: number): SpreadStats {
  const n = closes.length;
  const mean = closes.reduce((a, b) => a + b, 0) / n;
  const std = Math.sqrt(closes.reduce((a, c) => a + (c - mean) ** 2, 0) / n);
  return {
    n,
    mean,
    std,
    z: std > 0 ? (value - mean) / std : undefined,
    percentile: (closes.filter((c) => c <= value).length / n) * 100,
    min: Math.min(...closes),
    max: Math.max(...closes),
  };
}

function expectClose(actual: SpreadStats, expected: SpreadStats, relative: number): void {
  expect(actual.n).toBe(expected.n);
  expect([actual.percentile, actual.min, actual.max]).toEqual([
    expected.percentile,
    expected.min,
    expected.max,
  ]);
  for (const key of ["mean", "std", "z"] as const) {
    const a = actual[key];
    const e = expected[key];
    if (e === undefined || a === undefined) {
      expect([key, a]).toEqual([key, e]);
      continue;
    }
    // Relative, except near zero: a mean of ~0 is judged against the spread of the closes, and
    // a z of ~0 (value at the mean) against 1σ, since both naive sums round too.
    const floor = { mean: expected.std ?? 0, std: 1e-12, z: 1 }[key];
    const scale = Math.max(Math.abs(e), floor, 1e-12);
    expect(Math.abs(a - e) / scale, `${key}: ${a} vs ${e}`).toBeLessThanOrEqual(relative);
  }
}

describe("RollingSpreadStats.zOf and percentileOf (a backtest's per-minute questions)", () => {
  it("answer as stats() does, and a window without order statistics gives the same z", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e4, max: 1e4, noNaN: true }), { minLength: 1, maxLength: 300 }),
        fc.double({ min: -1e4, max: 1e4, noNaN: true }),
        (closes, value) => {
          const ordered = new RollingSpreadStats(1);
          const moments = new RollingSpreadStats(1, 60_000, false);
          closes.forEach((close, i) => {
            ordered.add(i * 60_000, close);
            moments.add(i * 60_000, close);
          });
          const s = ordered.stats(value);
          expect(ordered.zOf(value)).toBe(s.z);
          expect(ordered.percentileOf(value)).toBe(s.percentile);
          const m = moments.stats(value);
          expect([m.percentile, m.min, m.max, moments.percentileOf(value)]).toEqual([
            undefined,
            undefined,
            undefined,
            undefined,
          ]);
          if (s.z === undefined) return;
          expect(moments.zOf(value)).toBeCloseTo(s.z, 6);
          expect(m.z).toBeCloseTo(s.z, 6);
        },
      ),
    );
  });
});
