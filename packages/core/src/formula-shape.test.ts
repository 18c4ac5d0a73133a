import { describe, expect, it } from "vitest";
import { formulaShape } from "./formula-shape.ts";

describe("formulaShape", () => {
  it("reads a difference at its last top-level minus", () => {
    expect(formulaShape("a - b")).toEqual({ kind: "difference", left: "a", right: "b" });
    expect(formulaShape("c - n * 10")).toEqual({ kind: "difference", left: "c", right: "n * 10" });
    expect(formulaShape("a + b - c")).toEqual({ kind: "difference", left: "a + b", right: "c" });
    expect(formulaShape("(a - b) - (c - d)")).toEqual({
      kind: "difference",
      left: "(a - b)",
      right: "(c - d)",
    });
  });

  it("takes a leading or operand sign for unary", () => {
    expect(formulaShape("-a + b")).toEqual({ kind: "other" });
    expect(formulaShape("a * -b")).toEqual({ kind: "other" });
    expect(formulaShape("a - -b")).toEqual({ kind: "difference", left: "a", right: "-b" });
  });

  it("reads a ratio at its last top-level division", () => {
    expect(formulaShape("g / s")).toEqual({ kind: "ratio", left: "g", right: "s" });
    expect(formulaShape("(a + b) / c")).toEqual({ kind: "ratio", left: "(a + b)", right: "c" });
    expect(formulaShape("g / s * 100")).toEqual({ kind: "other" });
  });

  it("leaves sums, products and single terms as other", () => {
    expect(formulaShape("a + b")).toEqual({ kind: "other" });
    expect(formulaShape("a * b")).toEqual({ kind: "other" });
    expect(formulaShape("(a - b)")).toEqual({ kind: "other" });
    expect(formulaShape("a")).toEqual({ kind: "other" });
  });
});
