import type uPlot from "uplot";
import { afterEach, describe, expect, it } from "vitest";
import { FINE_SCALE, SPREAD_SCALE, setValueScale } from "../valueScale.ts";
import { levelAt, TAG_CLEARANCE_PX, ticksClearOfTag } from "./axisTags.ts";

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

describe("ticksClearOfTag", () => {
  // The y scale of `plot`: 100 at the top, 0 at 400 px, so a tick of value v sits at 400 - 4v.
  const pos = (value: number) => 400 - value * 4;
  const ticks = [0, 25, 50, 75, 100];

  it("leaves out the label the live value's tag would cover, and only that one", () => {
    // -885.77 over -900.00 on the phone: here 52 (px 192) over the tick 50 (px 200).
    expect(ticksClearOfTag(ticks, pos(52), pos)).toEqual([0, 25, null, 75, 100]);
  });

  it("keeps a label once the tag is clear of it", () => {
    const justClear = pos(50) - TAG_CLEARANCE_PX;
    expect(ticksClearOfTag(ticks, justClear, pos)).toEqual(ticks);
    expect(ticksClearOfTag(ticks, justClear + 1, pos)).toEqual([0, 25, null, 75, 100]);
  });

  it("keeps every label with no live value, or one off the scale", () => {
    expect(ticksClearOfTag(ticks, undefined, pos)).toEqual(ticks);
    expect(ticksClearOfTag(ticks, Number.NaN, pos)).toEqual(ticks);
  });
});
