import { describe, expect, it } from "vitest";
import type { FreshnessContext } from "./freshness.ts";
import type { SpreadInput } from "./inputMarks.ts";
import { legProblems, legsState } from "./legProblems.ts";
import { AT, BOOK } from "./quotes.fixture.ts";

const NOW: FreshnessContext = { now: AT + 1_000, providers: new Map() };

function input(label: string, entry: SpreadInput["entry"]): SpreadInput {
  return { label, source: "cme", key: label, entry };
}

describe("legProblems", () => {
  it("finds nothing wrong with fresh books", () => {
    expect(legProblems([input("CME GC", BOOK), input("MCX GOLD", BOOK)], NOW)).toEqual([]);
  });

  it("puts a missing leg before a stale one", () => {
    const old = { ...BOOK, timestamp: AT - 60_000 };
    const problems = legProblems([input("CME GC", old), input("MCX GOLD", undefined)], NOW);
    expect(problems.map((p) => p.kind)).toEqual(["missing", "stale"]);
    expect(problems[0]?.text).toBe("MCX GOLD missing");
  });
});

describe("legsState", () => {
  const delayed = { ...BOOK, delayed: true as const };

  it("leaves a row of fresh live legs unflagged", () => {
    const state = legsState([input("CME GC", BOOK), input("MCX GOLD", BOOK)], NOW, true);
    expect(state).toMatchObject({ problems: [], marks: {}, greyed: false });
    expect(state.data).toEqual({ "data-delayed": undefined, "data-greyed": undefined });
  });

  it("flags a computed spread from a delayed input as delayed, with the input's mark", () => {
    const state = legsState([input("CME GC", delayed), input("MCX GOLD", BOOK)], NOW, true);
    expect(state.data["data-delayed"]).toBe(true);
    expect(state.marks.delayed).toContain("delayed CME GC price");
  });

  it("does not flag a row with no spread as delayed, though its input is", () => {
    const state = legsState([input("CME GC", delayed), input("MCX GOLD", BOOK)], NOW, false);
    expect(state.data["data-delayed"]).toBeUndefined();
  });

  it("greys a row with a missing leg", () => {
    const state = legsState([input("CME GC", BOOK), input("MCX GOLD", undefined)], NOW, false);
    expect(state.greyed).toBe(true);
    expect(state.data["data-greyed"]).toBe(true);
    expect(state.problems.map((p) => p.kind)).toEqual(["missing"]);
  });
});
