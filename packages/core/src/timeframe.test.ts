import { describe, expect, it } from "vitest";
import { DEFAULT_TIMEFRAME, isTimeframe, TIMEFRAMES, timeframeMs } from "./timeframe.ts";

describe("timeframes", () => {
  it("are the spec's known values, shortest first, defaulting to 1h", () => {
    expect(TIMEFRAMES).toEqual(["1m", "5m", "15m", "1h", "4h", "1d"]);
    expect(DEFAULT_TIMEFRAME).toBe("1h");
  });

  it("have their length in milliseconds", () => {
    expect(TIMEFRAMES.map(timeframeMs)).toEqual([
      60_000, 300_000, 900_000, 3_600_000, 14_400_000, 86_400_000,
    ]);
  });

  it("narrow strings", () => {
    for (const tf of TIMEFRAMES) expect(isTimeframe(tf)).toBe(true);
    for (const bad of ["", "1H", "2h", "1w", "toString", undefined, 60, null]) {
      expect(isTimeframe(bad)).toBe(false);
    }
  });
});
