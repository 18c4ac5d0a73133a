import { describe, expect, it } from "vitest";
import { levelStep } from "./keyboardLevel.ts";

describe("levelStep", () => {
  it("is a round 1, 2 or 5 × 10^k near a hundredth of the range", () => {
    expect(levelStep(100)).toBe(1);
    expect(levelStep(150)).toBe(2);
    expect(levelStep(300)).toBe(5);
    expect(levelStep(700)).toBe(10);
    expect(levelStep(12_000)).toBe(200);
  });

  it("is never finer than 0.01", () => {
    expect(levelStep(0.5)).toBe(0.01);
    expect(levelStep(0)).toBe(0.01);
  });

  it("steps a ratio's small range in hundredths of a point", () => {
    expect(levelStep(3)).toBe(0.05);
  });
});
