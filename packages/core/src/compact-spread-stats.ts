import { lowerBound, upperBound } from "./sorted-multiset.ts";
import { DEFAULT_STATS_DAYS, type SpreadStats } from "./spread-stats.ts";

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const SLOTS = DAY_MS / MINUTE_MS;
/** A closed day's minute that had no close. */
const NO_CLOSE = 255;
/**
 * A closed day's closes fall into buckets of at most n / BUCKETS closes, so a rank read from a
 * day is off by at most n / (2 × BUCKETS): 0.42 % of the day, hence of the window. Fewer than
 * 2 × BUCKETS + 2 buckets ever (see `DayBlock.of`), so a minute's bucket fits a byte.
 */
const BUCKETS = 120;

interface Moments {
  n: number;
  mean: number;
  /** Σ (x − mean)²: merged and split by Chan's formulas, which do not cancel as Σx² − n·mean² can. */
  m2: number;
}

const NO_MOMENTS: Moments = { n: 0, mean: 0, m2: 0 };

function merged(a: Moments, b: Moments): Moments {
  if (a.n === 0) return b;
  if (b.n === 0) return a;
  const n = a.n + b.n;
  const delta = b.mean - a.mean;
  return { n, mean: a.mean + (delta * b.n) / n, m2: a.m2 + b.m2 + (delta * delta * a.n * b.n) / n };
}

/** `whole` without its part `part` (Chan's formula backwards). */
function without(whole: Moments, part: Moments): Moments {
  const n = whole.n - part.n;
  if (n <= 0) return NO_MOMENTS;
  if (part.n === 0) return whole;
  const mean = (whole.n * whole.mean - part.n * part.mean) / n;
  const delta = part.mean - mean;
  return { n, mean, m2: Math.max(0, whole.m2 - part.m2 - (delta * delta * n * part.n) / whole.n) };
}

function momentsOf(values: ArrayLike<number>, count: ArrayLike<number> = [], weighted = false) {
  let n = 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const w = weighted ? (count[i] as number) : 1;
    n += w;
    sum += w * (values[i] as number);
  }
  if (n === 0) return NO_MOMENTS;
  const mean = sum / n;
  let m2 = 0;
  for (let i = 0; i < values.length; i++) {
    const w = weighted ? (count[i] as number) : 1;
    const d = (values[i] as number) - mean;
    m2 += w * d * d;
  }
  return { n, mean, m2 };
}

/** The closes of one window day still in the window: all of a day, or the day at the edge. */
interface DayView {
  block: DayBlock;
  /** Closes in buckets 0..j still in the window (cumulative). */
  ends: ArrayLike<number>;
  moments: Moments;
  min: number;
  max: number;
}

/**
 * One closed day of 1-minute closes, summarised: exact count, moments, min and max; the closes
 * sorted into buckets (each bucket's smallest close, mean and count), and for each minute
 * the bucket its close went to, so the window's edge can leave a day minute by minute. ~3.7 kB a
 * full day against ~49 kB for the exact structure.
 */
class DayBlock {
  private constructor(
    readonly start: number,
    readonly moments: Moments,
    readonly min: number,
    readonly max: number,
    /** Each bucket's smallest close, ascending; a bucket's closes are below the next one's. */
    readonly lows: Float64Array,
    /** Closes in buckets 0..j. */
    readonly ends: Uint16Array,
    /**
     * Each bucket's exact mean: the stand-in for its closes that left (or stayed) at the window's
     * edge. Its middle was the stand-in before, and equal-count buckets are wide in a day's tails:
     * a one-day window's mean was off by 0.12 % of the range and its std by 2 % (a property run).
     */
    private readonly means: Float64Array,
    /**
     * Per minute of the day, its close's bucket or NO_CLOSE; then per bucket 1 where all its
     * closes are one number (one array rather than two: each typed array costs ~200 B).
     */
    private readonly codes: Uint8Array,
  ) {}

  /** Whether every close of bucket j is the same number. */
  constant(j: number): boolean {
    return this.codes[SLOTS + j] === 1;
  }

  /**
   * Buckets of ~n / BUCKETS closes in value order, never splitting equal closes: a run of equal
   * closes ends a bucket early or, if it starts one, makes it a constant bucket (exact for a
   * rank). Every two buckets cover more than `size` closes, so there are < 2·n/(size+1) + 2
   * ≤ 2·BUCKETS + 2 of them.
   */
  static of(start: number, slots: readonly number[], values: readonly number[]): DayBlock {
    const n = values.length;
    const order = Array.from({ length: n }, (_, i) => i).sort(
      (a, b) => (values[a] as number) - (values[b] as number),
    );
    const sorted = order.map((i) => values[i] as number);
    const size = Math.max(1, Math.floor(n / BUCKETS));
    const lows: number[] = [];
    const means: number[] = [];
    const ends: number[] = [];
    const constant: number[] = [];
    const codes = new Uint8Array(SLOTS + 2 * BUCKETS + 2).fill(NO_CLOSE, 0, SLOTS);
    for (let p = 0; p < n; ) {
      let end = Math.min(p + size, n);
      if (end < n && sorted[end - 1] === sorted[end]) {
        const runStart = lowerBound(sorted, sorted[end] as number);
        end = runStart > p ? runStart : upperBound(sorted, sorted[p] as number);
      }
      const bucket = lows.length;
      lows.push(sorted[p] as number);
      let sum = 0;
      for (let i = p; i < end; i++) sum += sorted[i] as number;
      means.push(sum / (end - p));
      ends.push(end);
      constant.push(sorted[p] === sorted[end - 1] ? 1 : 0);
      for (let i = p; i < end; i++) codes[slots[order[i] as number] as number] = bucket;
      p = end;
    }
    codes.set(constant, SLOTS);
    return new DayBlock(
      start,
      momentsOf(values),
      sorted[0] as number,
      sorted[n - 1] as number,
      Float64Array.from(lows),
      Uint16Array.from(ends),
      Float64Array.from(means),
      codes.slice(0, SLOTS + lows.length),
    );
  }

  get size(): number {
    return this.ends[this.ends.length - 1] as number;
  }

  /** A bucket's stand-in for closes that left or stayed at the edge: its mean. */
  private meanOf(j: number): number {
    return this.means[j] as number;
  }

  whole(): DayView {
    return { block: this, ends: this.ends, moments: this.moments, min: this.min, max: this.max };
  }

  /**
   * The day from minute `firstSlot` on (the window's edge is in this day). Counts per bucket are
   * exact; the moments take the closes that left (or stayed, whichever are fewer) at their
   * bucket's mean; min and max are the bounds of the outermost buckets still holding closes.
   */
  from(firstSlot: number): DayView {
    if (firstSlot <= 0) return this.whole();
    const buckets = this.lows.length;
    const kept = new Uint16Array(buckets);
    for (let slot = firstSlot; slot < SLOTS; slot++) {
      const code = this.codes[slot] as number;
      if (code !== NO_CLOSE) kept[code] = (kept[code] as number) + 1;
    }
    const ends = new Uint16Array(buckets);
    const left = new Uint16Array(buckets);
    const means = new Float64Array(buckets);
    let total = 0;
    let lowest = -1;
    let highest = -1;
    for (let j = 0; j < buckets; j++) {
      const count = kept[j] as number;
      total += count;
      ends[j] = total;
      left[j] = (this.ends[j] as number) - (j > 0 ? (this.ends[j - 1] as number) : 0) - count;
      means[j] = this.meanOf(j);
      if (count > 0) {
        if (lowest < 0) lowest = j;
        highest = j;
      }
    }
    if (total === 0) return { block: this, ends, moments: NO_MOMENTS, min: NaN, max: NaN };
    const moments =
      total <= this.size - total
        ? momentsOf(means, kept, true)
        : without(this.moments, momentsOf(means, left, true));
    const max =
      highest === buckets - 1
        ? this.max
        : this.constant(highest)
          ? (this.lows[highest] as number)
          : (this.lows[highest + 1] as number);
    return { block: this, ends, moments, min: this.lows[lowest] as number, max };
  }
}

/** Closes of the view ≤ value: exact outside the bucket holding `value`, half of that bucket. */
function countAtMost(view: DayView, value: number): number {
  const { lows } = view.block;
  const j = upperBound(lows, value) - 1;
  if (j < 0) return 0;
  const before = j > 0 ? (view.ends[j - 1] as number) : 0;
  const inBucket = (view.ends[j] as number) - before;
  const whole = view.block.constant(j) || (j === lows.length - 1 && value >= view.block.max);
  return before + (whole ? inBucket : inBucket / 2);
}

/**
 * Rolling statistics of one spread over the 1-minute closes of the last `days` days — the
 * window of RollingSpreadStats, to the minute — in ~1/18 of its memory, for the users' own
 * spreads (1,000 of them with two sides each would hold ~2 GB exactly; see docs/formulas.md,
 * "Statistics"). The day being recorded is kept as it is (exact); each earlier day is summarised
 * when the next begins (DayBlock): its count, mean, variance, min and max stay exact, and its
 * closes are kept as ~120 value buckets with a byte per minute naming each close's bucket.
 *
 * - `n`, `from`, `to` are exact; so are mean, std, min and max while the window's edge is at a
 *   day's start; inside a day the closes that left are taken at their bucket's mean.
 * - A percentile rank is exact within today's closes and off by at most half a bucket per earlier
 *   day: at most 0.42 percentile points in all (BUCKETS), whatever the data. Equal closes are
 *   never split between buckets, so a flat spread's rank is exact.
 *
 * Why not a quantile sketch over the whole window (t-digest, KLL): closes must also leave, minute
 * by minute, which those do not support; per-day summaries leave with their day, and the byte per
 * minute lets the edge leave inside one.
 */
export class CompactSpreadStats {
  private blocks: DayBlock[] = [];
  private openStart = Number.NaN;
  /** Today's close of each minute, NaN where there is none: exact, and 11.5 kB at most. */
  private today: Float64Array | undefined;
  private todayCount = 0;
  private latest = Number.NaN;
  private edge: { start: number; slot: number; view: DayView } | undefined;
  private quantileCache: { version: number; values: number[] } | undefined;
  private version = 0;

  constructor(readonly days: number = DEFAULT_STATS_DAYS) {}

  /** Closes in the window. */
  get size(): number {
    let n = this.todayCount;
    for (const view of this.views()) n += view.ends[view.ends.length - 1] as number;
    return n;
  }

  /** [from, to) of the window, or undefined while it is empty. */
  window(): { from: number; to: number } | undefined {
    if (Number.isNaN(this.latest)) return undefined;
    const to = this.latest + MINUTE_MS;
    return { from: to - this.days * DAY_MS, to };
  }

  /**
   * Adds the close of the minute opened at `openTimeMs` (a time inside a minute counts as that
   * minute). A later minute moves the window on; a minute of today already there is replaced, a
   * missing one inserted. A minute of an earlier, summarised day is not taken (false), nor one
   * older than the window.
   */
  add(openTimeMs: number, close: number): boolean {
    if (!Number.isFinite(openTimeMs) || !Number.isFinite(close)) return false;
    // Whole days only: a window shorter than a day would cut into today's closes.
    if (!(this.days >= 1 && Number.isFinite(this.days * DAY_MS))) return false;
    const minute = openTimeMs - mod(openTimeMs, MINUTE_MS);
    const dayStart = minute - mod(minute, DAY_MS);
    const slot = (minute - dayStart) / MINUTE_MS;
    this.version++;
    if (Number.isNaN(this.latest) || minute > this.latest) {
      if (dayStart !== this.openStart) this.closeDay(dayStart);
      this.setToday(slot, close);
      this.latest = minute;
      this.evict();
      return true;
    }
    const window = this.window() as { from: number };
    if (minute < window.from || dayStart !== this.openStart) return false;
    this.setToday(slot, close);
    return true;
  }

  /** The window's statistics with `value` (the live spread) placed in it. */
  stats(value: number): SpreadStats {
    const window = this.window();
    const views = this.views();
    const today = this.todayValues();
    let moments = momentsOf(today);
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (const v of today) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    for (const view of views) {
      if (view.moments.n === 0) continue;
      moments = merged(moments, view.moments);
      if (view.min < min) min = view.min;
      if (view.max > max) max = view.max;
    }
    const n = moments.n;
    if (n === 0 || window === undefined) return { n: 0 };
    const flat = min === max;
    const mean = flat ? min : moments.mean;
    const std = flat ? 0 : Math.sqrt(Math.max(0, moments.m2 / n));
    const known = Number.isFinite(value);
    return {
      n,
      mean,
      std,
      z: known && std > 0 ? (value - mean) / std : undefined,
      percentile: known ? (this.countAtMost(value, today, views) / n) * 100 : undefined,
      min,
      max,
      from: window.from,
      to: window.to,
    };
  }

  /**
   * The 0th..100th percentiles (101 values): the k-th is the smallest value whose percentile rank
   * here (`stats`) is ≥ k, so a browser holding them judges a percentile threshold as the server
   * does, as with RollingSpreadStats. Undefined while the window is empty.
   */
  quantiles(): number[] | undefined {
    if (this.quantileCache?.version === this.version) return [...this.quantileCache.values];
    const views = this.views();
    // The rank is a step function of the value: it rises at each bucket's low (by the bucket, or
    // half of it) and at the next bucket's low (the other half), and at each of today's closes.
    const steps: Array<[number, number]> = this.todayValues().map((v) => [v, 1]);
    for (const view of views) {
      const { lows, max } = view.block;
      for (let j = 0; j < lows.length; j++) {
        const count = (view.ends[j] as number) - (j > 0 ? (view.ends[j - 1] as number) : 0);
        if (count === 0) continue;
        if (view.block.constant(j)) steps.push([lows[j] as number, count]);
        else {
          steps.push([lows[j] as number, count / 2]);
          steps.push([j + 1 < lows.length ? (lows[j + 1] as number) : max, count / 2]);
        }
      }
    }
    if (steps.length === 0) return undefined;
    steps.sort((a, b) => a[0] - b[0]);
    let n = 0;
    for (const [, count] of steps) n += count;
    // Each distinct value with the rank `stats` gives it: every step at or below it.
    const distinct: Array<[number, number]> = [];
    let rank = 0;
    for (const [at, count] of steps) {
      rank += count;
      const last = distinct[distinct.length - 1];
      if (last && last[0] === at) last[1] = rank;
      else distinct.push([at, rank]);
    }
    const values: number[] = [];
    let i = 0;
    for (let k = 0; k <= 100; k++) {
      while (i < distinct.length - 1 && ((distinct[i] as [number, number])[1] / n) * 100 < k) i++;
      values.push((distinct[i] as [number, number])[0]);
    }
    this.quantileCache = { version: this.version, values };
    return [...values];
  }

  private countAtMost(value: number, today: readonly number[], views: readonly DayView[]): number {
    let count = 0;
    for (const v of today) if (v <= value) count++;
    for (const view of views) count += countAtMost(view, value);
    return count;
  }

  /** The summarised days in the window, the one at the edge cut to its minutes in the window. */
  private views(): DayView[] {
    const window = this.window();
    if (!window) return [];
    const views: DayView[] = [];
    for (const block of this.blocks) {
      if (block.start >= window.from) views.push(block.whole());
      else {
        const slot = Math.ceil((window.from - block.start) / MINUTE_MS);
        if (this.edge?.start !== block.start || this.edge.slot !== slot)
          this.edge = { start: block.start, slot, view: block.from(slot) };
        views.push(this.edge.view);
      }
    }
    return views;
  }

  private setToday(slot: number, close: number): void {
    this.today ??= new Float64Array(SLOTS).fill(Number.NaN);
    if (Number.isNaN(this.today[slot] as number)) this.todayCount++;
    this.today[slot] = close;
  }

  private todayValues(): number[] {
    const values: number[] = [];
    if (this.todayCount === 0 || !this.today) return values;
    for (const v of this.today) if (!Number.isNaN(v)) values.push(v);
    return values;
  }

  private closeDay(nextStart: number): void {
    if (this.todayCount > 0 && this.today) {
      const slots: number[] = [];
      const values: number[] = [];
      this.today.forEach((v, slot) => {
        if (Number.isNaN(v)) return;
        slots.push(slot);
        values.push(v);
      });
      this.blocks.push(DayBlock.of(this.openStart, slots, values));
      this.today.fill(Number.NaN);
    }
    this.todayCount = 0;
    this.openStart = nextStart;
  }

  private evict(): void {
    const from = (this.window() as { from: number }).from;
    let drop = 0;
    while (drop < this.blocks.length && (this.blocks[drop] as DayBlock).start + DAY_MS <= from)
      drop++;
    if (drop > 0) this.blocks = this.blocks.slice(drop);
  }
}

function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}
