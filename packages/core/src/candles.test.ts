import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SpreadSample } from "./backtest.ts";
import {
  addSample,
  aggregateCandles,
  bucketStart,
  type Candle,
  CandleBuilder,
  candlesFromSamples,
  IST_OFFSET_MS,
  istBucketStart,
  startCandle,
} from "./candles.ts";
import { TIMEFRAMES, type Timeframe } from "./timeframe.ts";

const MIN = 60_000;
const utc = (day: number, hour: number, minute: number, second = 0) =>
  Date.UTC(2026, 10, day, hour, minute, second);

/** A 1-minute candle at `ts` (already a minute start). */
function c(ts: number, open: number, high: number, low: number, close: number): Candle {
  return { timestamp: ts, open, high, low, close };
}

describe("bucketStart", () => {
  it("aligns to IST: hours at :30 UTC, days at 18:30 UTC, 4h at IST 00:00, 04:00 …", () => {
    const t = utc(21, 13, 47, 12); // 19:17:12 IST
    expect(bucketStart(t, "1m")).toBe(utc(21, 13, 47));
    expect(bucketStart(t, "5m")).toBe(utc(21, 13, 45));
    expect(bucketStart(t, "15m")).toBe(utc(21, 13, 45));
    expect(bucketStart(t, "1h")).toBe(utc(21, 13, 30)); // 19:00 IST
    expect(bucketStart(t, "4h")).toBe(utc(21, 10, 30)); // 16:00 IST
    expect(bucketStart(t, "1d")).toBe(utc(20, 18, 30)); // 00:00 IST on the 21st
  });

  it("puts 18:29 and 18:30 UTC in different IST days", () => {
    expect(bucketStart(utc(21, 18, 29), "1d")).toBe(utc(20, 18, 30));
    expect(bucketStart(utc(21, 18, 30), "1d")).toBe(utc(21, 18, 30));
  });

  it("keeps a bucket start where it is and works before 1970", () => {
    for (const tf of TIMEFRAMES) {
      const start = bucketStart(utc(21, 18, 30), tf);
      expect(start).toBeDefined();
      expect(bucketStart(start as number, tf)).toBe(start);
    }
    expect(bucketStart(-1, "1d")).toBe(-IST_OFFSET_MS);
    expect(bucketStart(-IST_OFFSET_MS - 1, "1d")).toBe(-IST_OFFSET_MS - 86_400_000);
  });

  it("is undefined for a time that is not a number", () => {
    expect(bucketStart(Number.NaN, "1m")).toBeUndefined();
    expect(bucketStart(Number.POSITIVE_INFINITY, "1h")).toBeUndefined();
    expect(istBucketStart(0, 0)).toBeUndefined();
    expect(istBucketStart(0, -MIN)).toBeUndefined();
  });
});

describe("startCandle and addSample", () => {
  it("build first / max / min / last", () => {
    let candle = startCandle(utc(21, 10, 0, 5), 5) as Candle;
    expect(candle).toEqual(c(utc(21, 10, 0), 5, 5, 5, 5));
    for (const v of [7, 3, Number.NaN, 4]) candle = addSample(candle, v);
    expect(candle).toEqual(c(utc(21, 10, 0), 5, 7, 3, 4));
  });

  it("start in the timeframe's bucket and refuse non-numbers", () => {
    expect(startCandle(utc(21, 10, 7), 1, "5m")?.timestamp).toBe(utc(21, 10, 5));
    expect(startCandle(Number.NaN, 1)).toBeUndefined();
    expect(startCandle(0, Number.POSITIVE_INFINITY)).toBeUndefined();
  });

  it("never change the candle they are given", () => {
    const candle = Object.freeze(c(0, 1, 1, 1, 1));
    expect(addSample(candle, 2)).toEqual(c(0, 1, 2, 1, 2));
    expect(candle.close).toBe(1);
  });
});

describe("CandleBuilder", () => {
  it("returns the candle a later bucket closes, and nothing for empty buckets", () => {
    const b = new CandleBuilder();
    expect(b.add(utc(21, 10, 0, 1), 10)).toBeUndefined();
    expect(b.add(utc(21, 10, 0, 30), 12)).toBeUndefined();
    expect(b.add(utc(21, 10, 0, 59), 11)).toBeUndefined();
    expect(b.forming).toEqual(c(utc(21, 10, 0), 10, 12, 10, 11));
    // 10:01 and 10:02 have no samples: no candles for them.
    expect(b.add(utc(21, 10, 3, 0), 9)).toEqual(c(utc(21, 10, 0), 10, 12, 10, 11));
    expect(b.forming).toEqual(c(utc(21, 10, 3), 9, 9, 9, 9));
    expect(b.flush()).toEqual(c(utc(21, 10, 3), 9, 9, 9, 9));
    expect(b.forming).toBeUndefined();
    expect(b.flush()).toBeUndefined();
  });

  it("makes a candle of a single sample", () => {
    const b = new CandleBuilder("5m");
    b.add(utc(21, 10, 7, 30), -2.5);
    expect(b.flush()).toEqual(c(utc(21, 10, 5), -2.5, -2.5, -2.5, -2.5));
  });

  it("ignores a sample older than the forming candle, so a closed candle never changes", () => {
    const b = new CandleBuilder();
    b.add(utc(21, 10, 0, 10), 10);
    const closed = b.add(utc(21, 10, 1, 10), 20);
    expect(closed).toEqual(c(utc(21, 10, 0), 10, 10, 10, 10));
    expect(b.add(utc(21, 10, 0, 50), 99)).toBeUndefined();
    expect(b.forming).toEqual(c(utc(21, 10, 1), 20, 20, 20, 20));
    expect(closed).toEqual(c(utc(21, 10, 0), 10, 10, 10, 10));
    expect(b.ignored).toBe(1);
    // An earlier time within the forming bucket is still that bucket's sample, in arrival order.
    b.add(utc(21, 10, 1, 5), 18);
    expect(b.forming).toEqual(c(utc(21, 10, 1), 20, 20, 18, 18));
  });

  it("ignores samples of a flushed bucket and non-numbers", () => {
    const b = new CandleBuilder();
    b.add(utc(21, 10, 0, 10), 10);
    b.flush();
    expect(b.add(utc(21, 10, 0, 20), 11)).toBeUndefined();
    expect(b.forming).toBeUndefined();
    b.add(utc(21, 10, 1), Number.NaN);
    b.add(Number.NaN, 1);
    expect(b.ignored).toBe(3);
    b.add(utc(21, 10, 1), 12);
    expect(b.forming).toEqual(c(utc(21, 10, 1), 12, 12, 12, 12));
  });

  it("hands out snapshots that later samples do not change", () => {
    const b = new CandleBuilder();
    b.add(0, 1);
    const snapshot = b.forming;
    b.add(1, 5);
    expect(snapshot).toEqual(c(0, 1, 1, 1, 1));
    expect(b.forming).toEqual(c(0, 1, 5, 1, 5));
  });

  it("resumes a candle stored at shutdown", () => {
    const stored = c(utc(21, 10, 0), 10, 12, 9, 11);
    const b = new CandleBuilder("1m", stored);
    b.add(utc(21, 10, 0, 40), 13);
    expect(b.forming).toEqual(c(utc(21, 10, 0), 10, 13, 9, 13));
    expect(stored.close).toBe(11);
    // A resume candle that is not a bucket start of the timeframe is not trusted.
    expect(new CandleBuilder("5m", c(utc(21, 10, 1), 1, 1, 1, 1)).forming).toBeUndefined();
  });
});

describe("candlesFromSamples", () => {
  it("builds every candle, the forming one last", () => {
    const samples: SpreadSample[] = [
      { ts: utc(21, 10, 0, 0), value: 1 },
      { ts: utc(21, 10, 0, 59), value: 3 },
      { ts: utc(21, 10, 2, 0), value: 2 },
    ];
    expect(candlesFromSamples(samples)).toEqual([
      c(utc(21, 10, 0), 1, 3, 1, 3),
      c(utc(21, 10, 2), 2, 2, 2, 2),
    ]);
    expect(candlesFromSamples(samples, "5m")).toEqual([c(utc(21, 10, 0), 1, 3, 1, 2)]);
    expect(candlesFromSamples([])).toEqual([]);
  });
});

describe("aggregateCandles", () => {
  it("takes the open of the first, max high, min low, close of the last", () => {
    const ones = [
      c(utc(21, 10, 0), 10, 11, 9, 10.5),
      c(utc(21, 10, 1), 10.5, 14, 10, 13),
      c(utc(21, 10, 4), 13, 13.5, 8, 9),
      c(utc(21, 10, 5), 9, 9, 9, 9),
    ];
    expect(aggregateCandles(ones, "5m")).toEqual([
      c(utc(21, 10, 0), 10, 14, 8, 9),
      c(utc(21, 10, 5), 9, 9, 9, 9),
    ]);
  });

  it("splits IST hours at :30 UTC and IST days at 18:30 UTC", () => {
    const ones = [
      c(utc(21, 18, 28), 1, 2, 0, 1),
      c(utc(21, 18, 29), 1, 3, 1, 2),
      c(utc(21, 18, 30), 5, 6, 4, 5),
      c(utc(21, 19, 29), 5, 7, 5, 7),
      c(utc(21, 19, 30), 7, 7, 6, 6),
    ];
    expect(aggregateCandles(ones, "1h")).toEqual([
      c(utc(21, 17, 30), 1, 3, 0, 2),
      c(utc(21, 18, 30), 5, 7, 4, 7),
      c(utc(21, 19, 30), 7, 7, 6, 6),
    ]);
    expect(aggregateCandles(ones, "1d")).toEqual([
      c(utc(20, 18, 30), 1, 3, 0, 2),
      c(utc(21, 18, 30), 5, 7, 4, 6),
    ]);
  });

  it("splits 4h buckets at IST 00:00, 04:00, 08:00 …", () => {
    // IST 03:59 and 04:00 on the 22nd are 22:29 and 22:30 UTC on the 21st.
    const ones = [c(utc(21, 22, 29), 1, 1, 1, 1), c(utc(21, 22, 30), 2, 2, 2, 2)];
    expect(aggregateCandles(ones, "4h").map((x) => x.timestamp)).toEqual([
      utc(21, 18, 30),
      utc(21, 22, 30),
    ]);
  });

  it("leaves gaps absent and handles empty and single inputs", () => {
    const ones = [c(utc(21, 10, 0), 1, 1, 1, 1), c(utc(21, 13, 0), 2, 2, 2, 2)];
    expect(aggregateCandles(ones, "1h").map((x) => x.timestamp)).toEqual([
      utc(21, 9, 30),
      utc(21, 12, 30),
    ]);
    expect(aggregateCandles([], "1d")).toEqual([]);
    expect(aggregateCandles([c(utc(21, 10, 0), 1, 2, 0, 1)], "1d")).toEqual([
      c(utc(20, 18, 30), 1, 2, 0, 1),
    ]);
  });

  it("sorts unsorted input, skips broken candles and never changes its input", () => {
    const a = c(utc(21, 10, 0), 1, 1, 1, 1);
    const b = c(utc(21, 10, 1), 2, 2, 2, 2);
    const broken = c(Number.NaN, 1, 1, 1, 1);
    const input = Object.freeze([b, broken, a, c(utc(21, 10, 2), Number.NaN, 1, 1, 1)]);
    expect(aggregateCandles(input, "5m")).toEqual([c(utc(21, 10, 0), 1, 2, 1, 2)]);
    expect(a).toEqual(c(utc(21, 10, 0), 1, 1, 1, 1));
  });

  it("nests: 1m → 1h → 1d equals 1m → 1d", () => {
    const ones = candlesFromSamples(
      Array.from({ length: 3000 }, (_, i) => ({ ts: utc(21, 0, 0) + i * 37_000, value: i % 17 })),
    );
    expect(aggregateCandles(aggregateCandles(ones, "1h"), "1d")).toEqual(
      aggregateCandles(ones, "1d"),
    );
  });
});

describe("candle properties", () => {
  // Sorted samples over about two IST days, crossing hour, 4h and day boundaries.
  const samples = fc
    .array(
      fc.record({
        ts: fc.integer({ min: utc(21, 17, 0), max: utc(23, 20, 0) }),
        value: fc.double({ min: -1e4, max: 1e4, noNaN: true, noDefaultInfinity: true }),
      }),
      { minLength: 1, maxLength: 300 },
    )
    .map((xs) => xs.sort((a, b) => a.ts - b.ts));
  const coarse = fc.constantFrom<Timeframe>("5m", "15m", "1h", "4h", "1d");

  it("aggregating 1m candles equals building the coarser candles from the samples", () => {
    fc.assert(
      fc.property(samples, coarse, (xs, tf) => {
        expect(aggregateCandles(candlesFromSamples(xs, "1m"), tf)).toEqual(
          candlesFromSamples(xs, tf),
        );
      }),
    );
  });

  it("takes −0 for 0, so a day of minutes aggregates as it builds (a counterexample it found)", () => {
    const xs = [
      { ts: 1795286825384, value: -0 },
      { ts: 1795341055983, value: 0 },
    ];
    const days = candlesFromSamples(xs, "1d");
    expect(aggregateCandles(candlesFromSamples(xs, "1m"), "1d")).toEqual(days);
    expect(Object.is(days[0]?.open, -0)).toBe(false);
  });

  it("keeps high ≥ max(open, close) ≥ min(open, close) ≥ low, buckets aligned and ascending", () => {
    fc.assert(
      fc.property(samples, fc.constantFrom(...TIMEFRAMES), (xs, tf) => {
        const candles = aggregateCandles(candlesFromSamples(xs, "1m"), tf);
        let previous = Number.NEGATIVE_INFINITY;
        for (const k of candles) {
          expect(k.high).toBeGreaterThanOrEqual(Math.max(k.open, k.close));
          expect(Math.max(k.open, k.close)).toBeGreaterThanOrEqual(Math.min(k.open, k.close));
          expect(Math.min(k.open, k.close)).toBeGreaterThanOrEqual(k.low);
          expect(bucketStart(k.timestamp, tf)).toBe(k.timestamp);
          expect(k.timestamp).toBeGreaterThan(previous);
          previous = k.timestamp;
        }
      }),
    );
  });

  it("out-of-order samples never change a candle that already closed", () => {
    const unsorted = fc.array(
      fc.record({ ts: fc.integer({ min: 0, max: 10 * MIN }), value: fc.integer() }),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(unsorted, (xs) => {
        const b = new CandleBuilder();
        const closed: Candle[] = [];
        const copies: Candle[] = [];
        for (const { ts, value } of xs) {
          const k = b.add(ts, value);
          if (k) {
            closed.push(k);
            copies.push({ ...k });
          }
        }
        expect(closed).toEqual(copies);
        const starts = closed.map((k) => k.timestamp);
        expect(starts).toEqual([...starts].sort((a, z) => a - z));
        expect(new Set(starts).size).toBe(starts.length);
      }),
    );
  });
});
