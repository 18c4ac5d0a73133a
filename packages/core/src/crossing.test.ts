import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ALERT_COOLDOWN_MS } from "./constants.ts";
import {
  type CrossingState,
  CrossingTracker,
  observeCrossing,
  type ThresholdSide,
  thresholdSide,
} from "./crossing.ts";

/** Feeds [time, value] observations of one alert, returning the time and side of each firing. */
function firings(threshold: number, steps: [number, number][]): [number, ThresholdSide][] {
  const fired: [number, ThresholdSide][] = [];
  let state: CrossingState = {};
  for (const [now, value] of steps) {
    const next = observeCrossing(state, threshold, value, now);
    if (next.fired) fired.push([now, next.side as ThresholdSide]);
    state = next.state;
  }
  return fired;
}

describe("thresholdSide", () => {
  it("counts a value at the threshold as above", () => {
    expect(thresholdSide(500, 500)).toBe("above");
    expect(thresholdSide(500.01, 500)).toBe("above");
    expect(thresholdSide(499.99, 500)).toBe("below");
    expect(thresholdSide(-0, 0)).toBe("above");
  });

  it("is undefined for non-finite input", () => {
    expect(thresholdSide(Number.NaN, 500)).toBeUndefined();
    expect(thresholdSide(Number.POSITIVE_INFINITY, 500)).toBeUndefined();
    expect(thresholdSide(1, Number.NaN)).toBeUndefined();
  });
});

describe("observeCrossing", () => {
  it("uses the spec's 30 s cooldown by default", () => {
    expect(ALERT_COOLDOWN_MS).toBe(30_000);
  });

  it("only records the side on the first observation", () => {
    expect(observeCrossing({}, 500, 510, 0)).toEqual({
      state: { side: "above" },
      fired: false,
      side: "above",
    });
    expect(observeCrossing({}, 500, 490, 0)).toEqual({
      state: { side: "below" },
      fired: false,
      side: "below",
    });
  });

  it("fires on a change from below to above, with the new side", () => {
    expect(observeCrossing({ side: "below" }, 500, 501, 1_000)).toEqual({
      state: { side: "above", lastFiredAt: 1_000 },
      fired: true,
      side: "above",
    });
  });

  it("fires on a change from above to below, with the new side", () => {
    expect(observeCrossing({ side: "above" }, 500, 499, 1_000)).toEqual({
      state: { side: "below", lastFiredAt: 1_000 },
      fired: true,
      side: "below",
    });
  });

  it("does not fire while the side stays, and returns the same state", () => {
    const state: CrossingState = { side: "above", lastFiredAt: 0 };
    const next = observeCrossing(state, 500, 9_999, 60_000);
    expect(next).toEqual({ state, fired: false, side: "above" });
    expect(next.state).toBe(state);
  });

  it("fires when the spread reaches the threshold exactly, not when it falls to it", () => {
    expect(
      firings(500, [
        [0, 499.5],
        [1_000, 500], // reaches 500 from below: fires "above"
        [40_000, 499.99], // below again: fires "below"
        [80_000, 500], // reaches again: fires
        [120_000, 500.5], // still above: nothing
        [160_000, 500], // falls back to exactly 500: still above, nothing
      ]),
    ).toEqual([
      [1_000, "above"],
      [40_000, "below"],
      [80_000, "above"],
    ]);
  });

  it("blocks a second firing within 30 s but still updates the side", () => {
    let state: CrossingState = { side: "below" };
    state = observeCrossing(state, 500, 510, 0).state; // fires at 0
    const blocked = observeCrossing(state, 500, 490, 29_999);
    expect(blocked).toEqual({
      state: { side: "below", lastFiredAt: 0 },
      fired: false,
      side: "below",
    });
    // The crossing back to below was swallowed, so staying below later does not fire late …
    expect(observeCrossing(blocked.state, 500, 480, 45_000).fired).toBe(false);
    // … and the next crossing, after the cooldown, fires normally.
    expect(observeCrossing(blocked.state, 500, 505, 45_000)).toEqual({
      state: { side: "above", lastFiredAt: 45_000 },
      fired: true,
      side: "above",
    });
  });

  it("may fire again exactly 30 s after the last firing", () => {
    expect(
      firings(500, [
        [0, 490],
        [10_000, 510],
        [40_000, 490],
      ]),
    ).toEqual([
      [10_000, "above"],
      [40_000, "below"],
    ]);
  });

  it("takes the cooldown as a parameter", () => {
    const state: CrossingState = { side: "below", lastFiredAt: 0 };
    expect(observeCrossing(state, 500, 510, 5_000, 5_000).fired).toBe(true);
    expect(observeCrossing(state, 500, 510, 4_999, 5_000).fired).toBe(false);
    expect(observeCrossing(state, 500, 510, 0, 0).fired).toBe(true);
  });

  it("does not let a clock set back silence the alert until it catches up", () => {
    const state: CrossingState = { side: "below", lastFiredAt: 1_000_000 };
    expect(observeCrossing(state, 500, 510, 990_000).fired).toBe(false);
    expect(observeCrossing(state, 500, 510, 100_000).fired).toBe(true);
  });

  it("changes nothing for a non-finite value, threshold or time", () => {
    const state: CrossingState = { side: "below", lastFiredAt: 0 };
    for (const [threshold, value, now] of [
      [500, Number.NaN, 60_000],
      [500, Number.POSITIVE_INFINITY, 60_000],
      [Number.NaN, 510, 60_000],
      [500, 510, Number.NaN],
    ] as const) {
      const next = observeCrossing(state, threshold, value, now);
      expect(next).toEqual({ state, fired: false, side: "below" });
      expect(next.state).toBe(state);
    }
    expect(observeCrossing({}, 500, Number.NaN, 0)).toEqual({ state: {}, fired: false });
  });

  it("never modifies the state it is given", () => {
    const state: CrossingState = Object.freeze({ side: "below" });
    expect(() => observeCrossing(state, 500, 510, 0)).not.toThrow();
    expect(state).toEqual({ side: "below" });
  });

  it("fires at most once per 30 s, and only on a genuine change of side", () => {
    const step = fc.tuple(
      fc.integer({ min: 0, max: 40_000 }),
      fc.oneof(
        fc.double({ min: -1_000, max: 1_000, noNaN: true }),
        fc.integer({ min: -2, max: 2 }).map((n) => 500 + n),
        fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY),
      ),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
        let now = 0;
        let state: CrossingState = {};
        let previousSide: ThresholdSide | undefined;
        let previousFiring: number | undefined;
        for (const [dt, value] of steps) {
          now += dt;
          const next = observeCrossing(state, 500, value, now);
          const side = thresholdSide(value, 500);
          if (next.fired) {
            expect(previousSide).toBeDefined();
            expect(side).toBeDefined();
            expect(side).not.toBe(previousSide);
            expect(next.side).toBe(side);
            if (previousFiring !== undefined) {
              expect(now - previousFiring).toBeGreaterThanOrEqual(ALERT_COOLDOWN_MS);
            }
            previousFiring = now;
          }
          // The side always follows the latest computable value, fired or not.
          if (side !== undefined) previousSide = side;
          expect(next.state.side).toBe(previousSide);
          state = next.state;
        }
      }),
    );
  });

  it("fires on every change of side when changes are at least 30 s apart", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 30_000, max: 100_000 }), fc.boolean()), {
          maxLength: 40,
        }),
        (steps) => {
          let now = 0;
          let state: CrossingState = {};
          let changes = 0;
          let fired = 0;
          for (const [dt, above] of steps) {
            now += dt;
            const next = observeCrossing(state, 0, above ? 1 : -1, now);
            if (state.side !== undefined && next.state.side !== state.side) changes++;
            if (next.fired) fired++;
            state = next.state;
          }
          expect(fired).toBe(changes);
        },
      ),
    );
  });
});

describe("CrossingTracker", () => {
  const gold = { id: 1, threshold: 500 };
  const silver = { id: 2, threshold: -100 };

  it("tracks each alert on its own", () => {
    const tracker = new CrossingTracker<number>();
    expect(tracker.observe(gold, 490, 0)).toBeUndefined();
    expect(tracker.observe(silver, -50, 0)).toBeUndefined();
    expect(tracker.observe(gold, 510, 1_000)).toBe("above");
    expect(tracker.observe(silver, -150, 2_000)).toBe("below");
    expect(tracker.observe(gold, 490, 3_000)).toBeUndefined(); // gold's cooldown
    expect(tracker.observe(silver, -150, 3_000)).toBeUndefined();
    expect(tracker.state(1)).toEqual({ side: "below", lastFiredAt: 1_000 });
    expect(tracker.state(2)).toEqual({ side: "below", lastFiredAt: 2_000 });
    expect(tracker.size).toBe(2);
  });

  it("with hysteresis fires once while the value swings on the threshold, again after moving back", () => {
    // Threshold 500, re-arm 20 (docs/user-guide.md's example); a minute apart, so no cooldown
    // applies.
    const alert = { id: 9, threshold: 500, hysteresis: 20 };
    const tracker = new CrossingTracker<number>();
    const fired = [490, 510, 495, 505, 495, 505, 480, 490, 510, 495].map((v, i) =>
      tracker.observe(alert, v, i * 60_000),
    );
    expect(fired).toEqual([
      undefined, // first value: the side only
      "above",
      undefined, // waiting to re-arm: the move back below is not sent
      undefined,
      undefined,
      undefined,
      undefined, // 480 = 500 − 20 re-arms it, without firing
      undefined,
      "above", // the next crossing fires
      undefined,
    ]);
    // Without hysteresis the same swings fire every time.
    const plain = new CrossingTracker<number>();
    const plainFired = [490, 510, 495, 505].map((v, i) =>
      plain.observe({ id: 9, threshold: 500 }, v, i * 60_000),
    );
    expect(plainFired).toEqual([undefined, "above", "below", "above"]);
  });

  it("starts an edited alert armed, whatever it waited for before", () => {
    const tracker = new CrossingTracker<number>();
    tracker.observe({ id: 3, threshold: 500, hysteresis: 20 }, 490, 0);
    expect(tracker.observe({ id: 3, threshold: 500, hysteresis: 20 }, 510, 60_000)).toBe("above");
    expect(
      tracker.observe({ id: 3, threshold: 500, hysteresis: 20 }, 495, 120_000),
    ).toBeUndefined();
    // Edited to 490: the next value learns its side, the one after fires on a crossing.
    tracker.observe({ id: 3, threshold: 490, hysteresis: 20 }, 495, 180_000);
    expect(tracker.observe({ id: 3, threshold: 490, hysteresis: 20 }, 485, 240_000)).toBe("below");
  });

  it("forgets a deleted alert, which then learns its side afresh", () => {
    const tracker = new CrossingTracker<number>();
    tracker.observe(gold, 490, 0);
    expect(tracker.forget(1)).toBe(true);
    expect(tracker.forget(1)).toBe(false);
    expect(tracker.state(1)).toBeUndefined();
    expect(tracker.observe(gold, 510, 60_000)).toBeUndefined(); // a first observation again
    expect(tracker.observe(gold, 490, 120_000)).toBe("below");
  });

  it("retains only the alerts still listed", () => {
    const tracker = new CrossingTracker<string>();
    for (const id of ["a", "b", "c"]) tracker.observe({ id, threshold: 0 }, 1, 0);
    tracker.retain(["b"]);
    expect(tracker.size).toBe(1);
    expect(tracker.state("b")).toEqual({ side: "above" });
    tracker.retain(new Set<string>());
    expect(tracker.size).toBe(0);
  });

  it("re-learns the side when the threshold changes, keeping the cooldown", () => {
    const tracker = new CrossingTracker<number>();
    tracker.observe(gold, 490, 0);
    expect(tracker.observe(gold, 510, 1_000)).toBe("above");
    // Edited to 600: 510 is below it, but that is no crossing, only a new threshold.
    expect(tracker.observe({ id: 1, threshold: 600 }, 510, 2_000)).toBeUndefined();
    expect(tracker.state(1)).toEqual({ side: "below", lastFiredAt: 1_000 });
    // Crossing the new threshold within 30 s of the last firing stays quiet …
    expect(tracker.observe({ id: 1, threshold: 600 }, 610, 3_000)).toBeUndefined();
    // … and after it, fires.
    expect(tracker.observe({ id: 1, threshold: 600 }, 590, 40_000)).toBe("below");
  });

  it("does not start tracking an alert on a value it cannot use", () => {
    const tracker = new CrossingTracker<number>();
    expect(tracker.observe(gold, Number.NaN, 0)).toBeUndefined();
    expect(tracker.size).toBe(0);
  });

  it("counts a seeded firing toward the cooldown (a server restart)", () => {
    const tracker = new CrossingTracker<number>();
    tracker.seed(1, 100_000); // lastTriggered from the database
    expect(tracker.observe(gold, 490, 110_000)).toBeUndefined(); // first observation
    expect(tracker.observe(gold, 510, 120_000)).toBeUndefined(); // 20 s after the stored firing
    expect(tracker.observe(gold, 490, 131_000)).toBe("below");
  });

  it("keeps the later firing time when seeded, and ignores missing times", () => {
    const tracker = new CrossingTracker<number>();
    tracker.observe(gold, 490, 0);
    tracker.observe(gold, 510, 50_000); // fires
    tracker.seed(1, 10_000);
    tracker.seed(1, null);
    tracker.seed(1, undefined);
    tracker.seed(1, Number.NaN);
    tracker.seed(2, null);
    expect(tracker.state(1)).toEqual({ side: "above", lastFiredAt: 50_000 });
    expect(tracker.size).toBe(1);
    tracker.seed(1, 60_000);
    expect(tracker.state(1)).toEqual({ side: "above", lastFiredAt: 60_000 });
  });

  it("takes the cooldown as a constructor parameter", () => {
    const tracker = new CrossingTracker<number>(0);
    tracker.observe(gold, 490, 0);
    expect(tracker.observe(gold, 510, 0)).toBe("above");
    expect(tracker.observe(gold, 490, 0)).toBe("below");
  });

  it("agrees with observeCrossing over random series of several alerts", () => {
    const step = fc.tuple(
      fc.constantFrom(1, 2, 3),
      fc.integer({ min: 0, max: 20_000 }),
      fc.integer({ min: -3, max: 3 }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 100 }), (steps) => {
        const tracker = new CrossingTracker<number>();
        const states = new Map<number, CrossingState>();
        let now = 0;
        for (const [id, dt, value] of steps) {
          now += dt;
          const expected = observeCrossing(states.get(id) ?? {}, 0, value, now);
          states.set(id, expected.state);
          expect(tracker.observe({ id, threshold: 0 }, value, now)).toBe(
            expected.fired ? expected.side : undefined,
          );
        }
      }),
    );
  });
});
