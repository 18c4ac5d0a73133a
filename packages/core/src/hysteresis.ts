import type { ThresholdSide } from "./crossing.ts";

/**
 * Hysteresis (docs/user-guide.md, "Spread alerts"): after firing into side S at threshold T, an
 * alert with a re-arm distance h fires again only once its value has moved back to T − h (S =
 * above) or T + h (S = below). Crossings while it waits are not fired (nor reported late), and the
 * observation that re-arms it does not fire either: the next crossing of T does. So a spread
 * oscillating on the threshold fires once, and again each time it has really moved away and come
 * back.
 */
export interface HysteresisState {
  threshold: number;
  hysteresis: number | undefined;
  lastFiredSide: ThresholdSide | undefined;
}

/** A stored hysteresis of null, 0 or a non-number is none. */
export function hysteresisOf(value: number | null | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The value at or past which an alert that fired into `lastFiredSide` is armed again. */
export function rearmLevel(state: HysteresisState): number | undefined {
  if (state.hysteresis === undefined || state.lastFiredSide === undefined) return undefined;
  return state.lastFiredSide === "above"
    ? state.threshold - state.hysteresis
    : state.threshold + state.hysteresis;
}

/** Whether `value` has moved back far enough for the alert to fire again. */
export function isPastRearmLevel(state: HysteresisState, value: number): boolean {
  const level = rearmLevel(state);
  if (level === undefined) return true;
  return state.lastFiredSide === "above" ? value <= level : value >= level;
}

/**
 * Whether an alert is armed when the engine (re)starts: only the side of its last firing is
 * stored, not whether it re-armed since, so it is armed iff the stored last value of its metric
 * (the previous leader's mark) is already past the re-arm level. Without a mark it waits for the
 * first value to be past it. An alert without hysteresis, or that never fired, is armed.
 */
export function armedAtStart(state: HysteresisState, mark: number | undefined): boolean {
  if (rearmLevel(state) === undefined) return true;
  return mark !== undefined && isPastRearmLevel(state, mark);
}
