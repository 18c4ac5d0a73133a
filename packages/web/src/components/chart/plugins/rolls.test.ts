import type uPlot from "uplot";
import { describe, expect, it } from "vitest";
import { rollGaps } from "./rolls.ts";

/** What rollGaps reads of a plot: the times and a linear x scale (1 px per second from 0). */
function plot(times: number[]): uPlot {
  return {
    data: [times],
    valToPos: (value: number) => value / 1000,
  } as unknown as uPlot;
}

const roll = (at: number) => ({ key: "GOLD", at, label: "GOLD near: 26FEB → 26APR" });

describe("rollGaps", () => {
  it("keeps the line's own gaps when nothing rolled", () => {
    const gaps: uPlot.Series.Gaps = [[10, 20]];
    expect(rollGaps(plot([0, 60_000]), [], gaps)).toBe(gaps);
  });

  it("breaks the line between the last candle before a roll and the first after it", () => {
    const times = [0, 60_000, 120_000, 180_000];
    // The candles at 60 and 120 px: the stroke between them is left out, a pixel off each.
    expect(rollGaps(plot(times), [roll(100_000)], [])).toEqual([[61, 119]]);
  });

  it("adds nothing for a roll before the first candle, and sorts the gaps", () => {
    const times = [0, 60_000, 120_000, 180_000];
    expect(rollGaps(plot(times), [roll(150_000), roll(-5), roll(30_000)], [[500, 510]])).toEqual([
      [1, 59],
      [121, 179],
      [500, 510],
    ]);
  });
});
