import { describe, expect, it } from "vitest";
import { backtestAlert, type SpreadSample, spreadSeries } from "./backtest.ts";
import { defaultDuties } from "./instrument.ts";
import type { Quote } from "./quote.ts";

// Crude oil has factor 1 and no duty, so CL_BUY = CRUDEOIL ask − CL bid × USDINR, in whole rupees.
const QUOTES: Quote[] = [
  { source: "fx", key: "USDINR", price: 80, ts: 1_000 }, // no books yet
  { source: "cme", key: "CL", bid: 70, ask: 71, ts: 2_000 }, // no MCX book yet
  { source: "mcx", key: "CRUDEOIL", bid: 5640, ask: 5650, ts: 3_000 }, // 5650 − 70 × 80 = 50
  { source: "mcx", key: "CRUDEOIL", bid: 5645, ts: 4_000 }, // bid only: BUY unchanged
  { source: "cme", key: "GC", bid: 2650, ask: 2650.4, ts: 5_000 }, // another instrument
  { source: "cme", key: "CL", bid: 70.5, ts: 6_000 }, // 5650 − 70.5 × 80 = 10 (ask 71 kept: not crossed)
  { source: "cme", key: "XX", bid: 1, ask: 2, ts: 7_000 }, // unknown key: rejected
  { source: "fx", key: "USDINR", price: 79, ts: 8_000 }, // 5650 − 70.5 × 79 = 80.5
  { source: "mcx", key: "CRUDEOIL", ask: 5650, ts: 9_000 }, // same ask: unchanged
  { source: "mcx", key: "CRUDEOIL", bid: 5550, ask: 5560, ts: 10_000 }, // 5560 − 5569.5 = −9.5
];

describe("spreadSeries", () => {
  it("emits a sample whenever the spread becomes computable or changes", () => {
    expect(spreadSeries(QUOTES, "CL_BUY", defaultDuties())).toEqual([
      { ts: 3_000, value: 50 },
      { ts: 6_000, value: 10 },
      { ts: 8_000, value: 80.5 },
      { ts: 10_000, value: -9.5 },
    ]);
  });

  it("follows the other side of the book for SELL", () => {
    // CL_SELL = CRUDEOIL bid − CL ask × USDINR
    const series = spreadSeries(QUOTES, "CL_SELL", defaultDuties());
    expect(series.map((s) => s.ts)).toEqual([3_000, 4_000, 8_000, 10_000]);
    expect(series[0]?.value).toBeCloseTo(5640 - 71 * 80, 9); // −40
    expect(series[1]?.value).toBeCloseTo(5645 - 71 * 80, 9); // −35
    expect(series[2]?.value).toBeCloseTo(5645 - 71 * 79, 9); // 36
    expect(series[3]?.value).toBeCloseTo(5550 - 71 * 79, 9); // −59
  });

  it("applies the duties it is given", () => {
    const duties = { ...defaultDuties(), CL: 0.25 };
    // 5650 − 70 × 80 × 1.25 = −1350
    expect(spreadSeries(QUOTES.slice(0, 3), "CL_BUY", duties)).toEqual([
      { ts: 3_000, value: -1350 },
    ]);
  });

  it("is empty when the spread is never computable", () => {
    expect(spreadSeries(QUOTES, "GC_BUY", defaultDuties())).toEqual([]);
    expect(spreadSeries([], "CL_BUY", defaultDuties())).toEqual([]);
  });
});

describe("backtestAlert", () => {
  const samples: SpreadSample[] = [
    { ts: 0, value: 50 }, // first: above 20, only recorded
    { ts: 10_000, value: 10 }, // below: fires
    { ts: 20_000, value: 30 }, // above, 10 s after the firing: swallowed, side updated
    { ts: 30_000, value: 25 }, // still above
    { ts: 45_000, value: 15 }, // below, 35 s after the firing: fires
    { ts: 50_000, value: Number.NaN }, // unusable: ignored
    { ts: 80_000, value: 20 }, // reaches 20 exactly: above, fires
    { ts: 90_000, value: 20 }, // unchanged
  ];

  it("returns when the alert would have fired, with the value and the new side", () => {
    expect(backtestAlert(samples, 20)).toEqual([
      { ts: 10_000, value: 10, side: "below" },
      { ts: 45_000, value: 15, side: "below" },
      { ts: 80_000, value: 20, side: "above" },
    ]);
  });

  it("takes the cooldown as a parameter", () => {
    expect(backtestAlert(samples, 20, 0).map((f) => f.ts)).toEqual([
      10_000, 20_000, 45_000, 80_000,
    ]);
    expect(backtestAlert(samples, 20, 60_000).map((f) => f.ts)).toEqual([10_000, 80_000]);
  });

  it("reads any iterable once, in order", () => {
    function* generate(): Generator<SpreadSample> {
      yield* samples;
    }
    expect(backtestAlert(generate(), 20)).toHaveLength(3);
  });

  it("never fires on the first sample or on an empty series", () => {
    expect(backtestAlert([{ ts: 0, value: 1 }], 0)).toEqual([]);
    expect(backtestAlert([], 0)).toEqual([]);
  });

  it("backtests a spread series from quotes", () => {
    const series = spreadSeries(QUOTES, "CL_BUY", defaultDuties());
    // 50 → 10 crosses 30 at 6 s; 10 → 80.5 at 8 s is inside the cooldown; 80.5 → −9.5 at 10 s
    // is still inside it, and the side is below again, so nothing more fires.
    expect(backtestAlert(series, 30)).toEqual([{ ts: 6_000, value: 10, side: "below" }]);
    // With 0 cooldown every change of side fires.
    expect(backtestAlert(series, 30, 0).map((f) => [f.ts, f.side])).toEqual([
      [6_000, "below"],
      [8_000, "above"],
      [10_000, "below"],
    ]);
  });
});
