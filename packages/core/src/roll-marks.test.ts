import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Candle } from "./candles.ts";
import { contractFor } from "./contract-calendar.ts";
import { backAdjustCandles, contractMonthLabel, rollLabel } from "./roll-marks.ts";

const candle = (timestamp: number, open: number, close = open): Candle => ({
  timestamp,
  open,
  high: Math.max(open, close) + 1,
  low: Math.min(open, close) - 1,
  close,
});

describe("contractMonthLabel", () => {
  it("reads the year and month of MCX and CME contract names", () => {
    expect(contractMonthLabel("GOLD26FEBFUT")).toBe("26FEB");
    expect(contractMonthLabel("NATGASMINI26JANFUT")).toBe("26JAN");
    expect(contractMonthLabel("GCG27")).toBe("27FEB");
    expect(contractMonthLabel("BZG27.NYM")).toBe("27FEB");
    expect(contractMonthLabel("GCZ6")).toBe("06DEC");
  });

  it("agrees with the calendar's own labels", () => {
    for (const [root, style] of [
      ["GOLD", "mcx"],
      ["CRUDEOIL", "mcx"],
      ["GC", "cme"],
      ["BZ", "cme"],
    ] as const) {
      const contract = contractFor(root, "next", "2026-03-10", 0, style);
      expect(contract).toBeDefined();
      expect(contractMonthLabel(contract?.symbol ?? "")).toBe(contract?.label);
    }
  });

  it("shows a name it cannot read as it is", () => {
    expect(contractMonthLabel("NIFTY 50")).toBe("NIFTY 50");
    expect(contractMonthLabel("")).toBe("");
  });
});

describe("rollLabel", () => {
  it("names the key's root and month selector and both contracts' months", () => {
    expect(rollLabel({ key: "GOLD", from: "GOLD26FEBFUT", to: "GOLD26APRFUT" })).toBe(
      "GOLD near: 26FEB → 26APR",
    );
    expect(rollLabel({ key: "GC@next", from: "GCJ26", to: "GCM26" })).toBe(
      "GC next: 26APR → 26JUN",
    );
  });
});

describe("backAdjustCandles", () => {
  const series = [candle(1, 100, 101), candle(2, 101, 102), candle(3, 110, 111), candle(4, 111)];

  it("leaves the series alone without a roll inside it", () => {
    expect(backAdjustCandles(series, [])).toBe(series);
    expect(backAdjustCandles(series, [{ at: 0 }])).toBe(series);
    expect(backAdjustCandles(series, [{ at: 99 }])).toBe(series);
    expect(backAdjustCandles([], [{ at: 2 }])).toEqual([]);
  });

  it("shifts the candles before a roll by the gap at it, the later ones not at all", () => {
    // The gap at a roll at t=3: the open after (110) minus the close before (102).
    const adjusted = backAdjustCandles(series, [{ at: 3 }]);
    expect(adjusted.map((c) => [c.open, c.high, c.low, c.close])).toEqual([
      [108, 110, 107, 109],
      [109, 111, 108, 110],
      [110, 112, 109, 111],
      [111, 112, 110, 111],
    ]);
    expect(series[0]?.open).toBe(100);
  });

  it("adds the gaps of every later roll to older candles", () => {
    const three = [candle(1, 10), candle(2, 20), candle(3, 25), candle(4, 40)];
    const adjusted = backAdjustCandles(three, [{ at: 2 }, { at: 4 }]);
    // At t=4 the gap is 40 − 25 = 15; at t=2 it is 20 − 10 = 10, so t=1 moves by 25.
    expect(adjusted.map((c) => c.close)).toEqual([35, 35, 40, 40]);
  });

  it("counts two legs rolling at once as one gap", () => {
    const adjusted = backAdjustCandles(series, [{ at: 3 }, { at: 3 }]);
    expect(adjusted.map((c) => c.close)).toEqual([109, 110, 111, 111]);
  });

  it("makes every roll seamless and keeps each candle's shape (property)", () => {
    const candles = fc
      .array(fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: -50, max: 50 })), {
        minLength: 1,
        maxLength: 40,
      })
      .map((pairs) => pairs.map(([open, move], i) => candle(i * 60, open, open + move)));
    fc.assert(
      fc.property(candles, fc.array(fc.integer({ min: 0, max: 40 * 60 })), (cs, ats) => {
        const out = backAdjustCandles(
          cs,
          ats.map((at) => ({ at })),
        );
        expect(out).toHaveLength(cs.length);
        for (const [i, c] of out.entries()) {
          const raw = cs[i] as Candle;
          expect(c.timestamp).toBe(raw.timestamp);
          expect(c.close - c.open).toBe(raw.close - raw.open);
          expect(c.high - c.low).toBe(raw.high - raw.low);
        }
        expect(out.at(-1)).toEqual(cs.at(-1));
        for (const at of ats) {
          const after = out.findIndex((c) => c.timestamp >= at);
          if (after > 0) expect(out[after]?.open).toBe(out[after - 1]?.close);
        }
      }),
    );
  });
});
