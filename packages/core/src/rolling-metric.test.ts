import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { denseRanks, rollingMetric } from "./rolling-metric.ts";
import { RollingSpreadStats } from "./spread-stats.ts";

const MINUTE = 60_000;
const DAY = 86_400_000;

/** The straightforward definition: for each close, the window of earlier closes, from scratch. */
function naive(
  metric: "z" | "percentile",
  times: number[],
  values: number[],
  days: number,
  minCloses: number,
): number[] {
  const out: number[] = [];
  let previous: number | undefined;
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as number;
    if (Number.isNaN(value)) {
      out.push(Number.NaN);
      continue;
    }
    const window: number[] = [];
    if (previous !== undefined) {
      const from = previous + MINUTE - days * DAY;
      for (let j = 0; j < i; j++) {
        const v = values[j] as number;
        if (!Number.isNaN(v) && (times[j] as number) >= from) window.push(v);
      }
    }
    previous = times[i];
    const n = window.length;
    if (n === 0 || n < minCloses) {
      out.push(Number.NaN);
      continue;
    }
    if (metric === "percentile") {
      out.push((window.filter((v) => v <= value).length / n) * 100);
      continue;
    }
    const mean = window.reduce((a, b) => a + b, 0) / n;
    const std = Math.sqrt(window.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
    out.push(std > 1e-9 * Math.max(1, Math.abs(mean)) ? (value - mean) / std : Number.NaN);
  }
  return out;
}

/** Times one to a few minutes apart, now and then a gap of days, so the window moves on. */
const seriesArb = fc
  .array(
    fc.record({
      gap: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 600, max: 3000 })),
      value: fc.oneof(
        { weight: 8, arbitrary: fc.integer({ min: -40, max: 40 }).map((v) => v / 4) },
        { weight: 1, arbitrary: fc.constant(Number.NaN) },
        {
          weight: 1,
          arbitrary: fc
            .double({ min: -1e4, max: 1e4, noNaN: true })
            .map((v) => Math.round(v * 1000) / 1000),
        },
      ),
    }),
    { minLength: 1, maxLength: 300 },
  )
  .map((rows) => {
    let t = 1_700_000_000_000;
    const times: number[] = [];
    const values: number[] = [];
    for (const { gap, value } of rows) {
      t += gap * MINUTE;
      times.push(t);
      values.push(value);
    }
    return { times, values };
  });

describe("rollingMetric", () => {
  it("equals the straightforward window on random series (z to rounding, percentile exactly)", () => {
    fc.assert(
      fc.property(
        seriesArb,
        fc.constantFrom(0.5, 1, 2),
        fc.integer({ min: 0, max: 20 }),
        ({ times, values }, days, minCloses) => {
          const t = Float64Array.from(times);
          const v = Float64Array.from(values);
          const percentile = [...rollingMetric("percentile", t, v, days, minCloses)];
          expect(percentile).toEqual(naive("percentile", times, values, days, minCloses));
          const z = rollingMetric("z", t, v, days, minCloses);
          const expected = naive("z", times, values, days, minCloses);
          expected.forEach((want, i) => {
            const got = z[i] as number;
            // A window of equal closes has no z; the sums may leave a rounding residue there.
            if (Number.isNaN(want)) {
              if (!Number.isNaN(got)) expect(Math.abs(got)).toBeGreaterThan(1e6);
            } else expect(got).toBeCloseTo(want, 6);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is the live statistics' answer minute by minute (RollingSpreadStats before the close)", () => {
    fc.assert(
      fc.property(seriesArb, ({ times, values }) => {
        const z = rollingMetric("z", Float64Array.from(times), Float64Array.from(values), 1, 1);
        const p = rollingMetric(
          "percentile",
          Float64Array.from(times),
          Float64Array.from(values),
          1,
          1,
        );
        const moments = new RollingSpreadStats(1, MINUTE, false);
        const ordered = new RollingSpreadStats(1, MINUTE, true);
        values.forEach((value, i) => {
          if (Number.isNaN(value)) return;
          expect(p[i]).toEqual(ordered.percentileOf(value) ?? Number.NaN);
          const live = moments.zOf(value);
          if (live === undefined || Math.abs(live) > 1e6)
            expect(Number.isNaN(z[i]) || Math.abs(z[i] as number) > 1e6).toBe(true);
          else expect(z[i]).toBeCloseTo(live, 6);
          moments.add(times[i] as number, value);
          ordered.add(times[i] as number, value);
        });
      }),
      { numRuns: 200 },
    );
  });

  it("judges a close without itself: the first close has no metric, the second only the first", () => {
    const times = Float64Array.from([0, MINUTE, 2 * MINUTE]);
    const p = rollingMetric("percentile", times, Float64Array.from([5, 4, 6]), 20, 1);
    expect([...p]).toEqual([Number.NaN, 0, 100]);
  });

  it("answers nothing for a window of no length", () => {
    const times = Float64Array.from([0, MINUTE]);
    expect([...rollingMetric("z", times, Float64Array.from([1, 2]), 0, 1)]).toEqual([
      Number.NaN,
      Number.NaN,
    ]);
  });
});

describe("denseRanks", () => {
  it("ranks equal values together, −0 with 0, negatives below, NaN as 0", () => {
    const { ranks, size } = denseRanks(
      Float64Array.from([3.5, -0, Number.NaN, -1e300, 0, 3.5, -2.25, 1e-300, -1e-300]),
    );
    expect([...ranks]).toEqual([6, 4, 0, 1, 4, 6, 2, 5, 3]);
    expect(size).toBe(6);
  });

  it("orders random doubles as a sort does", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true }), { maxLength: 200 }), (values) => {
        const { ranks } = denseRanks(Float64Array.from(values));
        const distinct = [...new Set(values.map((v) => v + 0))].sort((a, b) => a - b);
        expect([...ranks]).toEqual(values.map((v) => distinct.indexOf(v + 0) + 1));
      }),
    );
  });

  it("orders distinct doubles that round to one float32, in short runs and long ones", () => {
    // 1000 + k × 2⁻³⁰ are distinct doubles, all one float32: only the run's own ordering
    // tells them apart (insertion for a few, a comparison sort past 64).
    const near = fc.integer({ min: 0, max: 40 }).map((k) => 1000 + k * 2 ** -30);
    const value = fc.oneof(
      near,
      near.map((v) => -v),
      fc.constantFrom(0, -0, Number.NaN),
    );
    fc.assert(
      fc.property(fc.array(value, { maxLength: 400, size: "max" }), (values) => {
        const { ranks, size } = denseRanks(Float64Array.from(values));
        const distinct = [...new Set(values.filter((v) => !Number.isNaN(v)).map((v) => v + 0))];
        distinct.sort((a, b) => a - b);
        expect(size).toBe(distinct.length);
        expect([...ranks]).toEqual(values.map((v) => distinct.indexOf(v + 0) + 1));
      }),
      { numRuns: 300 },
    );
  });
});
