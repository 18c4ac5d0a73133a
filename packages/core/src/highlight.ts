/** docs/spec.md §4 "Price highlighting": a change of at least 0.01 … */
export const HIGHLIGHT_MIN_CHANGE = 0.01;
/** … at least 5 s after the cell's previous highlight … */
export const HIGHLIGHT_COOLDOWN_MS = 5_000;
/** … marks the cell for 1.5 s. */
export const HIGHLIGHT_DURATION_MS = 1_500;

/**
 * Absorbs float error in the change, so 100.02 − 100.01 (0.00999999999999801) counts as 0.01.
 * Far below any displayed precision, far above the error of subtracting prices under 10^6.
 */
const EPSILON = 1e-9;

export type HighlightDirection = "increase" | "decrease";

export interface HighlightState {
  /** The value seen at the previous update. */
  lastValue?: number;
  /** When the last highlight started. */
  lastHighlightAt?: number;
  direction?: HighlightDirection;
  /** The current highlight shows while `now < until`. */
  until?: number;
}

/**
 * The cell's state after a new value arrives at `now` (ms, from one monotonic-enough clock).
 *
 * The change is measured against the value seen at the previous update, i.e. what the trader
 * was looking at a moment ago, not against the value at the last highlight: a flash means "this
 * just moved". So `lastValue` is updated on every update, including ones the 5 s cooldown
 * suppresses; otherwise a move made during the cooldown would flash seconds later, when
 * nothing is moving. The first value only records itself. A missing or non-finite value (the
 * spread cannot be computed for now) leaves the state as it is.
 */
export function nextHighlight(
  state: HighlightState,
  value: number | null | undefined,
  now: number,
): HighlightState {
  if (value === null || value === undefined || !Number.isFinite(value)) return state;
  const { lastValue, lastHighlightAt } = state;
  if (lastValue === undefined) return { ...state, lastValue: value };
  const change = value - lastValue;
  const bigEnough = Math.abs(change) + EPSILON >= HIGHLIGHT_MIN_CHANGE;
  const cooledDown =
    lastHighlightAt === undefined || now - lastHighlightAt >= HIGHLIGHT_COOLDOWN_MS;
  if (!bigEnough || !cooledDown) return { ...state, lastValue: value };
  return {
    lastValue: value,
    lastHighlightAt: now,
    direction: change > 0 ? "increase" : "decrease",
    until: now + HIGHLIGHT_DURATION_MS,
  };
}

/** The class to put on the cell at `now`, or undefined when no highlight is showing. */
export function highlightClass(state: HighlightState, now: number): HighlightDirection | undefined {
  if (state.direction === undefined || state.until === undefined) return undefined;
  return now < state.until ? state.direction : undefined;
}
