import type { ThresholdSide } from "@spreadwatch/core";
import { isPastRearmLevel } from "@spreadwatch/core";

/** An alert as the engine holds it: what it needs to decide, nothing more. */
export interface WatchEntry {
  id: number;
  userId: number;
  threshold: number;
  /** Quote time of the alert's last server firing. */
  lastFiredAt: number | undefined;
  /** Re-arm distance in the metric's units; undefined when the alert has none (or 0). */
  hysteresis: number | undefined;
  /** The side the last server firing crossed into. */
  lastFiredSide: ThresholdSide | undefined;
  /** False after a firing with hysteresis, until the value has moved back past the re-arm level. */
  armed: boolean;
}

/** First index whose threshold is greater than `value` (thresholds sorted ascending). */
function upperBound(entries: readonly WatchEntry[], value: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((entries[mid] as WatchEntry).threshold <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The watched alerts of one (symbol, metric), sorted by threshold. A move of the value from
 * `from` to `to` can only change the side of alerts whose threshold lies between the two, so each
 * update costs a binary search plus the alerts actually crossed — not a scan of every alert.
 * Alerts waiting to re-arm (hysteresis) are also kept apart, so only they are checked per update.
 */
export class ThresholdIndex {
  private entries: WatchEntry[] = [];
  private readonly byId = new Map<number, WatchEntry>();
  private readonly disarmed = new Set<WatchEntry>();

  get size(): number {
    return this.entries.length;
  }

  /** The entry with this id, if watched here. */
  find(id: number): WatchEntry | undefined {
    return this.byId.get(id);
  }

  /** Replaces the entries of one user (after their alerts, permission or channels changed). */
  replaceUser(userId: number, entries: readonly WatchEntry[]): void {
    this.set([...this.entries.filter((e) => e.userId !== userId), ...entries]);
  }

  replaceAll(entries: readonly WatchEntry[]): void {
    this.set([...entries]);
  }

  /** Stops watching these alerts (disabled at their limit): one pass, however many. */
  remove(ids: ReadonlySet<number>): void {
    if (ids.size === 0) return;
    this.entries = this.entries.filter((e) => !ids.has(e.id));
    for (const id of ids) {
      const entry = this.byId.get(id);
      if (!entry) continue;
      this.byId.delete(id);
      this.disarmed.delete(entry);
    }
  }

  /**
   * Alerts whose side changes when the value moves `from` → `to`, where "above" means
   * value ≥ threshold: rising, thresholds in (from, to]; falling, thresholds in (to, from].
   */
  crossedBy(from: number, to: number): WatchEntry[] {
    if (from === to) return [];
    const low = Math.min(from, to);
    const high = Math.max(from, to);
    // Either way the side flips exactly for thresholds t with low < t ≤ high.
    const start = upperBound(this.entries, low);
    const end = upperBound(this.entries, high);
    return this.entries.slice(start, end);
  }

  /** The alert fired into `side`: with hysteresis it waits to re-arm. */
  fired(entry: WatchEntry, side: ThresholdSide): void {
    entry.lastFiredSide = side;
    if (entry.hysteresis === undefined) return;
    entry.armed = false;
    this.disarmed.add(entry);
  }

  /** Undoes `fired` when the store wrote nothing for the firing. */
  unfired(entry: WatchEntry, side: ThresholdSide | undefined, armed: boolean): void {
    entry.lastFiredSide = side;
    entry.armed = armed;
    if (armed) this.disarmed.delete(entry);
    else this.disarmed.add(entry);
  }

  /** Re-arms every waiting alert that `value` has moved back past its re-arm level. */
  rearm(value: number): void {
    if (this.disarmed.size === 0) return;
    for (const entry of this.disarmed) {
      if (!isPastRearmLevel(entry, value)) continue;
      entry.armed = true;
      this.disarmed.delete(entry);
    }
  }

  private set(entries: WatchEntry[]): void {
    this.entries = entries.sort((a, b) => a.threshold - b.threshold);
    this.byId.clear();
    this.disarmed.clear();
    for (const entry of entries) {
      this.byId.set(entry.id, entry);
      if (!entry.armed) this.disarmed.add(entry);
    }
  }
}
