import { describe, expect, it } from "vitest";
import { bandEdges } from "./bands.ts";

describe("bandEdges", () => {
  it("gives mean ± 2σ first, then mean ± 1σ (the inner band is drawn over the outer)", () => {
    expect(bandEdges({ mean: 10, std: 3 })).toEqual([
      { k: 2, low: 4, high: 16 },
      { k: 1, low: 7, high: 13 },
    ]);
  });

  it("collapses to the mean when the spread never moved", () => {
    expect(bandEdges({ mean: -5, std: 0 }).every((b) => b.low === -5 && b.high === -5)).toBe(true);
  });
});
