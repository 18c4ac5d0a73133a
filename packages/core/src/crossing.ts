import { ALERT_COOLDOWN_MS } from "./constants.ts";
import { hysteresisOf, isPastRearmLevel } from "./hysteresis.ts";

/**
 * The alert trigger rule of docs/spec.md §4, shared by the browser watcher, the server engine and
 * backtests. Time always comes from the caller (epoch ms: quote timestamps on the server, the
 * clock in the browser), so a replay fires at the same moments every run.
 */

/** Where a spread is relative to an alert's threshold. Exactly at the threshold is "above". */
export type ThresholdSide = "above" | "below";

export interface CrossingState {
  /** The side of the latest observed value; unknown until the first observation. */
  readonly side?: ThresholdSide;
  /** When the alert last fired, on the caller's clock. */
  readonly lastFiredAt?: number;
}

export interface CrossingResult {
  state: CrossingState;
  fired: boolean;
  /** The side after this observation (the new side when it fired), if known. */
  side?: ThresholdSide;
}

/**
 * The side of `value`, or undefined when either number is not finite. An alert "reaches" its
 * threshold at or beyond it, so a value equal to the threshold is "above": a spread rising to
 * exactly 500 fires a 500 alert, and one falling to exactly 500 from above does not.
 */
export function thresholdSide(value: number, threshold: number): ThresholdSide | undefined {
  if (!Number.isFinite(value) || !Number.isFinite(threshold)) return undefined;
  return value >= threshold ? "above" : "below";
}

/**
 * Whether an alert that last fired at `lastFiredAt` may fire at `now`. The cooldown is measured
 * both ways: a `now` long before `lastFiredAt` (a browser clock set back, a replay older than a
 * stored `lastTriggered`) must not silence the alert until the clock catches up.
 */
function cooledDown(lastFiredAt: number | undefined, now: number, cooldownMs: number): boolean {
  return lastFiredAt === undefined || Math.abs(now - lastFiredAt) >= cooldownMs;
}

/**
 * One observation of an alert's spread. The first observation (no side yet) only records the
 * side. A change of side fires unless the alert fired less than `cooldownMs` before; the side is
 * updated either way, so a crossing suppressed by the cooldown is not reported late, and a
 * crossing back after the cooldown fires normally. Exactly `cooldownMs` after a firing may fire.
 * A non-finite value, threshold or time (the spread cannot be computed for now) changes
 * nothing. Pure: `state` is never modified; it is returned as is when nothing changed.
 */
export function observeCrossing(
  state: CrossingState,
  threshold: number,
  value: number,
  now: number,
  cooldownMs: number = ALERT_COOLDOWN_MS,
): CrossingResult {
  const side = thresholdSide(value, threshold);
  if (side === undefined || !Number.isFinite(now)) return result(state, false);
  if (side === state.side) return result(state, false);
  if (state.side === undefined || !cooledDown(state.lastFiredAt, now, cooldownMs)) {
    return result({ ...state, side }, false);
  }
  return result({ side, lastFiredAt: now }, true);
}

function result(state: CrossingState, fired: boolean): CrossingResult {
  return state.side === undefined ? { state, fired } : { state, fired, side: state.side };
}

/** What the tracker needs of an alert; stored alert rows fit as they are. */
export interface CrossingAlert<Id> {
  readonly id: Id;
  readonly threshold: number;
  /** Re-arm distance after a firing (hysteresis.ts); null, 0 or absent: none. */
  readonly hysteresis?: number | null;
}

interface Tracked {
  /** The threshold the side was learned against; undefined for an entry made by `seed`. */
  threshold?: number;
  state: CrossingState;
  /** With hysteresis: the side it last fired into, and whether it has moved back since. */
  lastFiredSide?: ThresholdSide;
  armed?: boolean;
}

/**
 * `observeCrossing` for many alerts, keyed by alert id. The caller observes the alerts that are
 * enabled and calls `retain` with the ids it still has (or `forget` one), so a deleted or
 * disabled alert stops being tracked and, if it comes back, learns its side afresh.
 *
 * When an alert's threshold changes (an edit), its side is re-learned: the next observation only
 * records, because the side against the old threshold says nothing about the new one, and firing
 * on the edit itself would report a crossing the spread never made. The last firing time is
 * kept, so an edit cannot be used to get around the cooldown.
 */
export class CrossingTracker<Id = string | number> {
  readonly #cooldownMs: number;
  readonly #tracked = new Map<Id, Tracked>();

  constructor(cooldownMs: number = ALERT_COOLDOWN_MS) {
    this.#cooldownMs = cooldownMs;
  }

  /** Observes `value` for the alert at `now`; returns the new side when the alert fires. */
  observe(alert: CrossingAlert<Id>, value: number, now: number): ThresholdSide | undefined {
    const tracked = this.#tracked.get(alert.id);
    let state: CrossingState = tracked?.state ?? {};
    const edited = tracked !== undefined && tracked.threshold !== alert.threshold;
    if (edited) {
      state =
        tracked.state.lastFiredAt === undefined ? {} : { lastFiredAt: tracked.state.lastFiredAt };
    }
    const hysteresis = hysteresisOf(alert.hysteresis);
    // An edit starts the alert armed, as the server's engine does with a changed threshold.
    const armed = edited || hysteresis === undefined || (tracked?.armed ?? true);
    let next = observeCrossing(state, alert.threshold, value, now, this.#cooldownMs);
    // Waiting to re-arm: the side moves on, but nothing fires and the cooldown is not restarted.
    if (next.fired && !armed)
      next = { state: { ...next.state, lastFiredAt: state.lastFiredAt }, fired: false };
    const firedSide = next.fired ? next.side : undefined;
    const lastFiredSide = firedSide ?? (edited ? undefined : tracked?.lastFiredSide);
    const rearm = { threshold: alert.threshold, hysteresis, lastFiredSide };
    // After the crossing: the observation that re-arms an alert does not also fire it.
    const armedNext = firedSide
      ? hysteresis === undefined
      : armed || isPastRearmLevel(rearm, value);
    if (next.state.side !== undefined || tracked !== undefined) {
      this.#tracked.set(alert.id, {
        threshold: alert.threshold,
        state: next.state,
        lastFiredSide,
        armed: armedNext,
      });
    }
    return firedSide;
  }

  /**
   * Counts a firing made elsewhere toward the alert's cooldown: the stored `lastTriggered` of an
   * alert when a server restarts. The later of the known and the given time wins; a missing or
   * non-finite time is ignored. The alert's side is not touched.
   */
  seed(id: Id, lastFiredAt: number | null | undefined): void {
    if (lastFiredAt === null || lastFiredAt === undefined || !Number.isFinite(lastFiredAt)) return;
    const tracked = this.#tracked.get(id);
    const known = tracked?.state.lastFiredAt;
    if (known !== undefined && known >= lastFiredAt) return;
    if (tracked === undefined) this.#tracked.set(id, { state: { lastFiredAt } });
    else tracked.state = { ...tracked.state, lastFiredAt };
  }

  /** Stops tracking the alert (deleted or disabled); true if it was tracked. */
  forget(id: Id): boolean {
    return this.#tracked.delete(id);
  }

  /** Forgets every alert whose id is not in `ids` (the caller's current list of alerts). */
  retain(ids: Iterable<Id>): void {
    const keep = ids instanceof Set ? (ids as ReadonlySet<Id>) : new Set(ids);
    for (const id of this.#tracked.keys()) if (!keep.has(id)) this.#tracked.delete(id);
  }

  /** The alert's crossing state, or undefined when it is not tracked. */
  state(id: Id): CrossingState | undefined {
    return this.#tracked.get(id)?.state;
  }

  /** How many alerts are tracked. */
  get size(): number {
    return this.#tracked.size;
  }
}
