import type { Candle } from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import { foldSample, keepShown } from "./liveCandles.ts";

const MINUTE = 60_000;
/** A one-minute candle at minute `m` of the epoch. */
const c = (m: number, open: number, high: number, low: number, close: number): Candle => ({
  timestamp: m * MINUTE,
  open,
  high,
  low,
  close,
});

describe("keepShown", () => {
  it("keeps a move the stream showed after the server answered, in the forming candle", () => {
    // The refetch at the minute's turn was answered with only the minute's first sample (6);
    // the stream had meanwhile shown 7.
    const fetched = [c(1, 5, 8, 2, 2), c(2, 6, 6, 6, 6)];
    const shown = [c(1, 5, 8, 2, 2), c(2, 6, 7, 6, 7)];
    expect(keepShown(fetched, shown)).toEqual([c(1, 5, 8, 2, 2), c(2, 6, 7, 6, 7)]);
  });

  it("takes the fetched open and widens by what either saw", () => {
    const fetched = [c(2, 4, 9, 3, 5)];
    const shown = [c(2, 6, 7, 1, 7)];
    expect(keepShown(fetched, shown)).toEqual([c(2, 4, 9, 1, 7)]);
  });

  it("adds the shown candles the answer did not reach yet", () => {
    const fetched = [c(1, 5, 8, 2, 2)];
    const shown = [c(1, 5, 8, 2, 2), c(2, 6, 7, 6, 7)];
    expect(keepShown(fetched, shown)).toEqual(shown);
  });

  it("takes a closed candle as the server recorded it", () => {
    // The stream folded the minute's last sample (3) into the next message; the server has it.
    const fetched = [c(1, 5, 8, 2, 3)];
    const shown = [c(1, 5, 8, 2, 2), c(2, 6, 6, 6, 6)];
    expect(keepShown(fetched, shown)).toEqual([c(1, 5, 8, 2, 3), c(2, 6, 6, 6, 6)]);
  });

  it("takes the answer alone when it is newer than anything shown, or empty", () => {
    const fetched = [c(1, 5, 8, 2, 2), c(2, 6, 6, 6, 6)];
    expect(keepShown(fetched, [c(1, 5, 5, 5, 5)])).toBe(fetched);
    expect(keepShown(fetched, [])).toBe(fetched);
    expect(keepShown([], [c(1, 5, 5, 5, 5)])).toEqual([]);
  });
});

describe("foldSample", () => {
  it("widens the forming candle, starts the next bucket's, and leaves a closed one alone", () => {
    const candles = [c(1, 5, 5, 5, 5)];
    expect(foldSample(candles, MINUTE + 30_000, 8, "1m")).toEqual([c(1, 5, 8, 5, 8)]);
    expect(foldSample(candles, 2 * MINUTE + 1_000, 6, "1m")).toEqual([
      c(1, 5, 5, 5, 5),
      c(2, 6, 6, 6, 6),
    ]);
    expect(foldSample(candles, 30_000, 1, "1m")).toBeUndefined();
  });
});
