import { describe, expect, it } from "vitest";
import { labelNudges } from "./thresholds.ts";

// A label is 16 px tall and sits just above its line (thresholds.ts).
describe("labelNudges", () => {
  it("leaves labels far apart where they are", () => {
    expect(labelNudges([100, 200, 300])).toEqual([0, 0, 0]);
  });

  it("moves a label that would cover the one above to just below it", () => {
    // Lines 5 px apart: the second label goes 11 px down, so the two touch and do not overlap.
    expect(labelNudges([100, 105])).toEqual([0, 11]);
  });

  it("stacks a run of close lines one label height apart", () => {
    const ys = [100, 101, 102];
    const tops = labelNudges(ys).map((nudge, i) => (ys[i] ?? 0) - 16 + nudge);
    expect(tops).toEqual([84, 100, 116]);
  });

  it("keeps whole pixels for whole-pixel lines", () => {
    expect(labelNudges([50, 60, 61]).every(Number.isInteger)).toBe(true);
  });
});
