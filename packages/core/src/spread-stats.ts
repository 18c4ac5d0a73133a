import { lowerBound, SortedMultiset } from "./sorted-multiset.ts";

/** The windows a trader can pick (docs/formulas.md, "Statistics"), in days; 20 unless asked. */
export const STATS_DAYS = [5, 20, 60] as const;
export const DEFAULT_STATS_DAYS = 20;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const EPSILON = Number.EPSILON;

/**
 * How `value` compares with the window's closes. With no closes every field but `n` is
 * undefined; with all closes equal (std 0) `z` is undefined rather than ±Infinity.
 */
export interface SpreadStats {
  n: number;
  mean?: number;
  /** Population standard deviation (divides by n). */
  std?: number;
  /** (value − mean) / std. */
  z?: number;
  /** Share of the closes ≤ value, × 100. */
  percentile?: number;
  min?: number;
  max?: number;
  /** The window [from, to) of candle open times, epoch ms. */
  from?: number;
  to?: number;
}

/**
 * Rolling statistics of one spread over the 1-minute closes of the last `days` days, kept
 * up to date as candles close rather than recomputed per request. The window is the `days`
 * calendar days ending where the latest candle ends: open times in
 * [latest + 1 min − days × 24 h, latest + 1 min), so the latest close is in and weekends
 * simply contribute no closes.
 *
 * Mean and variance come from running sums of d = close − shift: with `shift` near the data the
 * squares stay small and E[d²] − E[d]² does not cancel catastrophically. Removing values from
 * running sums still leaves the rounding of every value that passed through them (an evicted
 * outlier's d² of 256 leaves ~1e-14, which is 1e-9 of a variance of 2.5e-5), so the sums are
 * recomputed from the window, `shift` reset to its mean, after as many changes as the window
 * holds (at least 1,024; amortised O(1)) and also whenever a query finds the rounding bound of
 * the sums (ε × Σ|d|, ε × Σd² over the values added and removed since) above 1e-12 of the
 * answer — only after the window moved far from `shift`. Order statistics (percentile, min,
 * max) come from a SortedMultiset.
 */
export class RollingSpreadStats {
  private times: number[] = [];
  private values: number[] = [];
  /** Index of the oldest close in the window; earlier slots are evicted, compacted lazily. */
  private head = 0;
  private readonly sorted = new SortedMultiset();
  private shift = 0;
  private sum = 0;
  private sumSquares = 0;
  private changes = 0;
  /** Σ|d| and Σd² of every value added or removed since the last recompute: the rounding scale. */
  private magnitude = 0;
  private magnitudeSquares = 0;

  /**
   * `ordered` false keeps no order statistics (percentile, min, max and quantiles are
   * undefined): a backtest on z needs only the moments, and the sorted multiset is most of the
   * cost of adding a close.
   */
  constructor(
    readonly days: number = DEFAULT_STATS_DAYS,
    readonly candleMs: number = MINUTE_MS,
    readonly ordered: boolean = true,
  ) {}

  /** Closes in the window. */
  get size(): number {
    return this.times.length - this.head;
  }

  /** The open time of the oldest close in the window, undefined while it is empty. */
  get first(): number | undefined {
    return this.size > 0 ? this.times[this.head] : undefined;
  }

  /** [from, to) of the window, or undefined while it is empty. */
  window(): { from: number; to: number } | undefined {
    const latest = this.times[this.times.length - 1];
    if (latest === undefined || this.size === 0) return undefined;
    const to = latest + this.candleMs;
    return { from: to - this.days * DAY_MS, to };
  }

  /**
   * Adds the close of the candle opened at `openTimeMs`. A candle for an open time already in
   * the window replaces its close; a later one moves the window on (evicting what falls out);
   * an earlier missing one (a late backfill) is inserted in place, O(n) — rare by design; one
   * older than the window is ignored. False when the close was not taken.
   */
  add(openTimeMs: number, close: number): boolean {
    if (!Number.isFinite(openTimeMs) || !Number.isFinite(close)) return false;
    // A window of no length (days ≤ 0 or not a number) holds nothing: every stats() is { n: 0 }.
    if (!(this.days > 0 && this.candleMs > 0 && Number.isFinite(this.days * this.candleMs)))
      return false;
    const latest = this.times[this.times.length - 1];
    if (latest === undefined || this.size === 0 || openTimeMs > latest) {
      this.append(openTimeMs, close);
      this.evict();
      return true;
    }
    const window = this.window() as { from: number; to: number };
    if (openTimeMs < window.from) return false;
    const i = lowerBound(this.times, openTimeMs, this.head);
    if (this.times[i] === openTimeMs) {
      this.take(this.values[i] as number);
      this.values[i] = close;
      this.put(close);
    } else {
      this.times.splice(i, 0, openTimeMs);
      this.values.splice(i, 0, close);
      this.put(close);
    }
    this.maybeRecompute();
    return true;
  }

  /** The window's statistics with `value` (the live spread) placed in it. */
  stats(value: number): SpreadStats {
    const n = this.size;
    const window = this.window();
    if (n === 0 || window === undefined) return { n: 0 };
    let moments = this.moments(n);
    if (this.roundingTooLarge(n, moments)) {
      this.recompute();
      moments = this.moments(n);
    }
    if (!this.ordered) {
      const std = Math.sqrt(moments.variance);
      const z = Number.isFinite(value) && std > 0 ? (value - moments.mean) / std : undefined;
      return { n, mean: moments.mean, std, z, from: window.from, to: window.to };
    }
    const min = this.sorted.min() as number;
    const max = this.sorted.max() as number;
    // All closes equal: exactly 0, not the rounding residue of the sums.
    const variance = min === max ? 0 : moments.variance;
    const mean = min === max ? min : moments.mean;
    const std = Math.sqrt(variance);
    const known = Number.isFinite(value);
    return {
      n,
      mean,
      std,
      z: known && std > 0 ? (value - mean) / std : undefined,
      percentile: known ? (this.sorted.countAtMost(value) / n) * 100 : undefined,
      min,
      max,
      from: window.from,
      to: window.to,
    };
  }

  /**
   * `stats(value).z` without building the answer: what a backtest asks once a minute. The
   * same sums, the same recompute when their rounding is too large.
   */
  zOf(value: number): number | undefined {
    const n = this.size;
    if (n === 0 || !Number.isFinite(value)) return undefined;
    let meanShifted = this.sum / n;
    let variance = this.sumSquares / n - meanShifted * meanShifted;
    const meanError = (EPSILON * this.magnitude) / n;
    const varianceError =
      (EPSILON * (this.magnitudeSquares + 2 * Math.abs(meanShifted) * this.magnitude)) / n;
    const mean = this.shift + meanShifted;
    if (
      varianceError > 1e-12 * Math.max(0, variance) ||
      meanError > 1e-12 * Math.max(Math.abs(mean), Math.sqrt(Math.max(0, variance)))
    ) {
      this.recompute();
      meanShifted = this.sum / n;
      variance = this.sumSquares / n - meanShifted * meanShifted;
    }
    if (this.ordered && this.sorted.min() === this.sorted.max()) return undefined;
    const std = Math.sqrt(Math.max(0, variance));
    return std > 0 ? (value - (this.shift + meanShifted)) / std : undefined;
  }

  /** `stats(value).percentile` without building the answer. */
  percentileOf(value: number): number | undefined {
    const n = this.size;
    if (n === 0 || !this.ordered || !Number.isFinite(value)) return undefined;
    return (this.sorted.countAtMost(value) / n) * 100;
  }

  /**
   * The 0th..100th percentiles of the window's closes (101 values), nearest rank: the k-th is
   * the smallest close c with at least k % of the closes ≤ c (the 0th is the minimum). So for an
   * integer k, a value's percentile rank (share ≤ value) is ≥ k exactly when the value is ≥ the
   * k-th: a browser holding these judges a percentile threshold as the server does. Undefined
   * while the window is empty.
   */
  quantiles(): number[] | undefined {
    const n = this.size;
    if (n === 0 || !this.ordered) return undefined;
    const values: number[] = [];
    for (let k = 0; k <= 100; k++) {
      const rank = Math.max(1, Math.ceil((k * n) / 100));
      values.push(this.sorted.at(rank - 1) as number);
    }
    return values;
  }

  private append(openTimeMs: number, close: number): void {
    if (this.size === 0) this.reset(close);
    this.times.push(openTimeMs);
    this.values.push(close);
    this.put(close);
  }

  private evict(): void {
    const latest = this.times[this.times.length - 1] as number;
    const from = latest + this.candleMs - this.days * DAY_MS;
    while (this.head < this.times.length && (this.times[this.head] as number) < from) {
      this.take(this.values[this.head] as number);
      this.head++;
    }
    if (this.head > 4096 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.values = this.values.slice(this.head);
      this.head = 0;
    }
    this.maybeRecompute();
  }

  private put(value: number): void {
    const d = value - this.shift;
    this.sum += d;
    this.sumSquares += d * d;
    this.magnitude += Math.abs(d);
    this.magnitudeSquares += d * d;
    if (this.ordered) this.sorted.insert(value);
    this.changes++;
  }

  private take(value: number): void {
    const d = value - this.shift;
    this.sum -= d;
    this.sumSquares -= d * d;
    this.magnitude += Math.abs(d);
    this.magnitudeSquares += d * d;
    if (this.ordered) this.sorted.remove(value);
    this.changes++;
  }

  private moments(n: number): { mean: number; variance: number } {
    const meanShifted = this.sum / n;
    return {
      mean: this.shift + meanShifted,
      variance: Math.max(0, this.sumSquares / n - meanShifted ** 2),
    };
  }

  /** Whether the sums' rounding could exceed 1e-12 of the mean or the variance. */
  private roundingTooLarge(
    n: number,
    { mean, variance }: { mean: number; variance: number },
  ): boolean {
    const meanError = (EPSILON * this.magnitude) / n;
    const varianceError =
      (EPSILON * (this.magnitudeSquares + 2 * Math.abs(this.sum / n) * this.magnitude)) / n;
    return (
      varianceError > 1e-12 * variance ||
      meanError > 1e-12 * Math.max(Math.abs(mean), Math.sqrt(variance))
    );
  }

  private maybeRecompute(): void {
    if (this.changes >= Math.max(1024, this.size)) this.recompute();
  }

  private recompute(): void {
    let total = 0;
    for (let i = this.head; i < this.values.length; i++) total += this.values[i] as number;
    this.reset(this.size > 0 ? total / this.size : 0);
    for (let i = this.head; i < this.values.length; i++) {
      const d = (this.values[i] as number) - this.shift;
      this.sum += d;
      this.sumSquares += d * d;
      this.magnitude += Math.abs(d);
      this.magnitudeSquares += d * d;
    }
  }

  private reset(shift: number): void {
    this.shift = shift;
    this.sum = 0;
    this.sumSquares = 0;
    this.magnitude = 0;
    this.magnitudeSquares = 0;
    this.changes = 0;
  }
}
