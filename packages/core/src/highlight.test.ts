import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  HIGHLIGHT_COOLDOWN_MS,
  HIGHLIGHT_DURATION_MS,
  HIGHLIGHT_MIN_CHANGE,
  type HighlightState,
  highlightClass,
  nextHighlight,
} from "./highlight.ts";

/** Feeds [time, value] updates through the machine, returning every intermediate state. */
function run(updates: [number, number | undefined][]): HighlightState[] {
  const states: HighlightState[] = [];
  let state: HighlightState = {};
  for (const [now, value] of updates) {
    state = nextHighlight(state, value, now);
    states.push(state);
  }
  return states;
}

const last = <T>(items: T[]): T | undefined => items[items.length - 1];

describe("highlight constants", () => {
  it("match docs/spec.md §9", () => {
    expect(HIGHLIGHT_MIN_CHANGE).toBe(0.01);
    expect(HIGHLIGHT_COOLDOWN_MS).toBe(5_000);
    expect(HIGHLIGHT_DURATION_MS).toBe(1_500);
  });
});

describe("nextHighlight", () => {
  it("only records the first value", () => {
    const state = nextHighlight({}, 100, 0);
    expect(state).toEqual({ lastValue: 100 });
    expect(highlightClass(state, 0)).toBeUndefined();
  });

  it("highlights a rise of 0.01 for 1.5 s", () => {
    const [, state] = run([
      [0, 100.01],
      [2_000, 100.02],
    ]);
    expect(state).toEqual({
      lastValue: 100.02,
      lastHighlightAt: 2_000,
      direction: "increase",
      until: 3_500,
    });
    expect(highlightClass(state ?? {}, 2_000)).toBe("increase");
    expect(highlightClass(state ?? {}, 3_499)).toBe("increase");
    expect(highlightClass(state ?? {}, 3_500)).toBeUndefined();
  });

  it("highlights a fall as decrease", () => {
    const state = last(
      run([
        [0, -2.5],
        [2_000, -2.75],
      ]),
    );
    expect(highlightClass(state ?? {}, 2_100)).toBe("decrease");
  });

  it("counts 0.01 despite float error (100.02 − 100.01 = 0.00999…98)", () => {
    expect(100.02 - 100.01).toBeLessThan(0.01);
    expect(nextHighlight({ lastValue: 100.02 }, 100.01, 0).direction).toBe("decrease");
  });

  it("ignores a change below 0.01 but remembers the value", () => {
    const state = nextHighlight({ lastValue: 100 }, 100.009, 0);
    expect(state).toEqual({ lastValue: 100.009 });
  });

  it("compares with the previous value, so a slow drift never flashes", () => {
    const states = run([
      [0, 100],
      [2_000, 100.005],
      [4_000, 100.01],
      [6_000, 100.015],
    ]);
    expect(states.some((s) => s.direction !== undefined)).toBe(false);
  });

  it("suppresses a second highlight within 5 s, still tracking the value", () => {
    const states = run([
      [0, 100],
      [1_000, 101], // highlight
      [3_000, 99], // suppressed: 2 s after the last highlight
      [5_999, 98], // suppressed: 4.999 s after
      [6_000, 98], // no change since 98
      [6_000, 97], // allowed: exactly 5 s, compared with 98
    ]);
    expect(states[1]?.lastHighlightAt).toBe(1_000);
    expect(states[2]).toEqual({ ...states[1], lastValue: 99 });
    expect(states[3]).toEqual({ ...states[1], lastValue: 98 });
    expect(states[4]).toEqual({ ...states[1], lastValue: 98 });
    expect(states[5]).toEqual({
      lastValue: 97,
      lastHighlightAt: 6_000,
      direction: "decrease",
      until: 7_500,
    });
  });

  it("does not flash late for a move made during the cooldown", () => {
    const states = run([
      [0, 100],
      [1_000, 101], // highlight
      [2_000, 105], // suppressed
      [8_000, 105], // quiet: no change since 105, so no flash now
    ]);
    expect(last(states)?.lastHighlightAt).toBe(1_000);
    expect(highlightClass(last(states) ?? {}, 8_000)).toBeUndefined();
  });

  it("keeps the state when the value cannot be computed", () => {
    const state: HighlightState = {
      lastValue: 5,
      lastHighlightAt: 0,
      direction: "increase",
      until: 1_500,
    };
    expect(nextHighlight(state, undefined, 10_000)).toBe(state);
    expect(nextHighlight(state, null, 10_000)).toBe(state);
    expect(nextHighlight(state, Number.NaN, 10_000)).toBe(state);
  });

  it("never highlights twice within 5 s, and only for changes of 0.01 or more", () => {
    const step = fc.tuple(
      fc.integer({ min: 0, max: 7_000 }),
      fc.oneof(
        fc.double({ min: -1_000, max: 1_000, noNaN: true }),
        fc.integer({ min: -3, max: 3 }).map((n) => n / 100),
        fc.constant(undefined),
      ),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let now = 0;
        let state: HighlightState = {};
        let previousHighlight: number | undefined;
        for (const [dt, value] of steps) {
          now += dt;
          const before = state;
          state = nextHighlight(state, value, now);
          if (state.lastHighlightAt !== before.lastHighlightAt) {
            expect(state.lastHighlightAt).toBe(now);
            if (previousHighlight !== undefined) {
              expect(now - previousHighlight).toBeGreaterThanOrEqual(HIGHLIGHT_COOLDOWN_MS);
            }
            expect(Math.abs((value ?? 0) - (before.lastValue ?? 0))).toBeGreaterThanOrEqual(
              HIGHLIGHT_MIN_CHANGE - 1e-9,
            );
            previousHighlight = now;
          }
        }
      }),
    );
  });
});

describe("highlightClass", () => {
  it("is undefined without a highlight", () => {
    expect(highlightClass({}, 0)).toBeUndefined();
    expect(highlightClass({ lastValue: 1 }, 0)).toBeUndefined();
  });
});
