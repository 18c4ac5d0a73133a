import { describe, expect, it } from "vitest";
import type { Candle } from "./candles.ts";
import { compileFormula } from "./formula.ts";
import { candlesFromLegs } from "./leg-candles.ts";

const M = 60_000;
const c = (minute: number, open: number, close: number): Candle => ({
  timestamp: minute * M,
  open,
  high: Math.max(open, close),
  low: Math.min(open, close),
  close,
});

describe("candlesFromLegs", () => {
  it("evaluates the formula's mid over the legs' opens and closes, carrying a quiet leg's last close", () => {
    const formula = compileFormula("g - 2 * s", ["g", "s"]);
    const g = [c(0, 100, 101), c(1, 101, 103), c(3, 103, 99)];
    const s = [c(1, 10, 11), c(2, 11, 12)];
    expect(candlesFromLegs(formula, [g, s])).toEqual([
      // minute 0: s has no close yet, so no candle
      { timestamp: 1 * M, open: 101 - 20, high: 103 - 22, low: 101 - 20, close: 103 - 22 },
      // minute 2: g is quiet, its open and close are its last close (103)
      { timestamp: 2 * M, open: 103 - 22, high: 103 - 22, low: 103 - 24, close: 103 - 24 },
      // minute 3: s is quiet at 12
      { timestamp: 3 * M, open: 103 - 24, high: 103 - 24, low: 99 - 24, close: 99 - 24 },
    ]);
  });

  it("skips times where the formula has no value, and answers nothing for a leg count that does not fit", () => {
    const ratio = compileFormula("g / s", ["g", "s"]);
    const g = [c(0, 10, 10), c(1, 10, 10)];
    const s = [c(0, 0, 0), c(1, 4, 5)];
    expect(candlesFromLegs(ratio, [g, s])).toEqual([
      { timestamp: M, open: 2.5, high: 2.5, low: 2, close: 2 },
    ]);
    expect(candlesFromLegs(ratio, [g])).toEqual([]);
  });
});
