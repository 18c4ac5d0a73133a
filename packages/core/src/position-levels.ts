// A position's target and stop (docs/user-guide.md "Targets and stops on positions"): when net ₹
// reaching a level fires, and when the level re-arms. The server's position alerts (api
// positions/position-alerts.ts, which indexes thousands of levels by value) and the browser's
// popup follow this rule, so both fire on the same crossings.
import { isPastRearmLevel } from "./hysteresis.ts";

export type PositionLevelKind = "target" | "stop";

/**
 * After a firing, a target waits until net ₹ has fallen back this far below it (a stop: risen
 * this far above it) before it can fire again: the alerts' hysteresis at a fixed distance, 1 % of
 * the level and at least ₹100, so a net wobbling on its level sends one message, not one a tick.
 */
export function rearmDistance(level: number): number {
  return Math.max(100, Math.abs(level) * 0.01);
}

/** Whether `netInr` has reached the level: a target at or above it, a stop at or below it. */
export function levelReached(kind: PositionLevelKind, level: number, netInr: number): boolean {
  return kind === "target" ? netInr >= level : netInr <= level;
}

/** Whether `netInr` is back past the level's re-arm distance (the side it fired from). */
export function levelRearmed(kind: PositionLevelKind, level: number, netInr: number): boolean {
  return isPastRearmLevel(
    {
      threshold: level,
      hysteresis: rearmDistance(level),
      lastFiredSide: kind === "target" ? "above" : "below",
    },
    netInr,
  );
}

/** Where net ₹ stood against one level. */
export interface LevelState {
  /** Unknown until the first value. */
  reached: boolean | undefined;
  /** False after a firing (or a first value already past the level) until it re-arms. */
  armed: boolean;
}

export const freshLevel = (): LevelState => ({ reached: undefined, armed: true });

/**
 * One trusted value of net ₹ against a level; returns whether it fires. The first value only
 * records where net stands (one already past the level waits to re-arm, as after a firing); a
 * firing is a move from not reached to reached while armed; the value that re-arms a level does
 * not also fire it. A value on stale legs must not be observed at all (the caller holds it).
 */
export function observeLevel(
  state: LevelState,
  kind: PositionLevelKind,
  level: number,
  netInr: number,
): boolean {
  if (!Number.isFinite(netInr)) return false;
  const before = state.reached;
  const reached = levelReached(kind, level, netInr);
  state.reached = reached;
  if (before === undefined) {
    state.armed = !reached;
    return false;
  }
  if (before === false && reached && state.armed) {
    state.armed = false;
    return true;
  }
  if (!state.armed && !reached && levelRearmed(kind, level, netInr)) state.armed = true;
  return false;
}

const inrFormat = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 2 });

/** "₹12,400", "₹12,400.5", "-₹3,000": rupees with Indian digit groups. */
export function formatInr(value: number): string {
  const text = `₹${inrFormat.format(Math.abs(value))}`;
  return value < 0 ? `-${text}` : text;
}

/**
 * "net ₹12,400 reached target ₹12,000" (a stop: "fell to stop"): how a crossing is worded on
 * Telegram, the webhook, the History and the browser's toast alike.
 */
export function levelCrossedText(kind: PositionLevelKind, netInr: number, level: number): string {
  const what = kind === "target" ? "reached target" : "fell to stop";
  return `net ${formatInr(netInr)} ${what} ${formatInr(level)}`;
}
