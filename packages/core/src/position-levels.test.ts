import { describe, expect, it } from "vitest";
import { freshLevel, levelReached, observeLevel, rearmDistance } from "./position-levels.ts";

const run = (kind: "target" | "stop", level: number, nets: number[]) => {
  const state = freshLevel();
  return nets.map((net) => observeLevel(state, kind, level, net));
};

describe("a position's level", () => {
  it("fires a target once per crossing, again only after net falls back past 1 % (₹100 at least)", () => {
    expect(rearmDistance(12_000)).toBe(120);
    expect(rearmDistance(-500)).toBe(100);
    // 11,000 first (records), up through 12,000, wobble inside the band, out past 11,880, up again.
    expect(run("target", 12_000, [11_000, 12_000, 11_950, 12_100, 11_880, 12_000])).toEqual([
      false,
      true,
      false,
      false,
      false,
      true,
    ]);
  });

  it("fires a stop when net falls to it (at the level counts), and re-arms above it", () => {
    expect(levelReached("stop", -3_000, -3_000)).toBe(true);
    expect(run("stop", -3_000, [-1_000, -3_000, -2_950, -3_500, -2_900, -3_000])).toEqual([
      false,
      true,
      false,
      false,
      false,
      true,
    ]);
  });

  it("does not fire on the first value, even one past the level, nor on a non-number", () => {
    expect(run("target", 100, [500, 600, Number.NaN, 700])).toEqual([false, false, false, false]);
    expect(run("target", 100, [500, -10, 150])).toEqual([false, false, true]);
  });
});
