/** An alert as the engine holds it: what it needs to decide, nothing more. */
export interface WatchEntry {
  id: number;
  userId: number;
  threshold: number;
  /** Quote time of the alert's last Telegram firing. */
  lastFiredAt: number | undefined;
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
 * The watched alerts of one spread symbol, sorted by threshold. A move of the spread from `from`
 * to `to` can only change the side of alerts whose threshold lies between the two, so each
 * update costs a binary search plus the alerts actually crossed — not a scan of every alert.
 */
export class ThresholdIndex {
  private entries: WatchEntry[] = [];

  get size(): number {
    return this.entries.length;
  }

  /** Replaces the entries of one user (after their alerts, permission or chat changed). */
  replaceUser(userId: number, entries: readonly WatchEntry[]): void {
    this.entries = [...this.entries.filter((e) => e.userId !== userId), ...entries];
    this.entries.sort((a, b) => a.threshold - b.threshold);
  }

  replaceAll(entries: readonly WatchEntry[]): void {
    this.entries = [...entries].sort((a, b) => a.threshold - b.threshold);
  }

  remove(id: number): void {
    this.entries = this.entries.filter((e) => e.id !== id);
  }

  /**
   * Alerts whose side changes when the spread moves `from` → `to`, where "above" means
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
}
