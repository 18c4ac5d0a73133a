import type uPlot from "uplot";
import { afterEach, describe, expect, it } from "vitest";
import { FINE_SCALE, SPREAD_SCALE, setValueScale } from "../valueScale.ts";
import { levelAt } from "./axisTags.ts";

/** A plot whose y scale reads 100 at the top down to 0 at 400 px. */
const plot = { posToVal: (top: number) => 100 - top / 4 } as unknown as uPlot;

afterEach(() => setValueScale(SPREAD_SCALE));

describe("levelAt", () => {
  it("is the price under the pointer, rounded to the axis's decimals", () => {
    expect(levelAt(plot, 1)).toBe(99.75);
    expect(levelAt(plot, 1.3)).toBe(99.68);
  });

  it("keeps 4 decimals on a fine scale (a ratio drawn in thousandths)", () => {
    setValueScale(FINE_SCALE);
    expect(levelAt(plot, 1.3)).toBe(99.675);
  });
});
