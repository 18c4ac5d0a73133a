// A backtest's z or percentile for every minute at once (docs/backtest.md, "Speed"): the same
// window and formulas as the live statistics (RollingSpreadStats), computed in one pass over
// typed arrays instead of one object call per minute.
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const EPSILON = Number.EPSILON;

/**
 * The metric of each close against the closes before it: out[i] for `values[i]` judged against
 * the window RollingSpreadStats(days) would hold after the closes 0..i−1 — open times in
 * [t' + 1 min − days × 24 h, t' + 1 min) with t' the previous close's time, so the close at i is
 * never in its own window (no look-ahead). NaN where there is no answer: a NaN value (a minute
 * without a price, skipped as the live statistics skip it), fewer than `minCloses` closes in the
 * window, or a z with no variation. `times` ascend.
 */
export function rollingMetric(
  metric: "z" | "percentile",
  times: Float64Array,
  values: Float64Array,
  days: number,
  minCloses: number,
): Float64Array {
  const out = new Float64Array(values.length).fill(Number.NaN);
  // A window of no length holds nothing (RollingSpreadStats.add takes no close).
  if (!(days > 0 && Number.isFinite(days * MINUTE_MS))) return out;
  if (metric === "z") rollingZ(times, values, days * DAY_MS, Math.max(1, minCloses), out);
  else rollingPercentile(times, values, days * DAY_MS, Math.max(1, minCloses), out);
  return out;
}

/**
 * Running sums of d = close − shift over the window, as RollingSpreadStats keeps them: with
 * `shift` near the data E[d²] − E[d]² does not cancel, and the sums are rebuilt around the
 * window's mean after as many changes as the window holds or when their rounding bound
 * (ε × Σ|d|, ε × Σd² since the last rebuild) passes 1e-12 of the answer.
 */
function rollingZ(
  times: Float64Array,
  values: Float64Array,
  windowMs: number,
  minCloses: number,
  out: Float64Array,
): void {
  let head = 0;
  let n = 0;
  let shift = 0;
  let sum = 0;
  let sumSquares = 0;
  let magnitude = 0;
  let magnitudeSquares = 0;
  let changes = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as number;
    if (Number.isNaN(value)) continue;
    if (n >= minCloses) {
      let meanShifted = sum / n;
      let variance = sumSquares / n - meanShifted * meanShifted;
      const meanError = (EPSILON * magnitude) / n;
      const varianceError =
        (EPSILON * (magnitudeSquares + 2 * Math.abs(meanShifted) * magnitude)) / n;
      if (
        varianceError > 1e-12 * Math.max(0, variance) ||
        meanError >
          1e-12 * Math.max(Math.abs(shift + meanShifted), Math.sqrt(Math.max(0, variance)))
      ) {
        ({ shift, sum, sumSquares, magnitude, magnitudeSquares } = windowSums(values, head, i, n));
        changes = 0;
        meanShifted = sum / n;
        variance = sumSquares / n - meanShifted * meanShifted;
      }
      const std = Math.sqrt(Math.max(0, variance));
      if (std > 0) out[i] = (value - (shift + meanShifted)) / std;
    }
    // Take the close into the window, then let the window move on past it.
    if (n === 0) {
      shift = value;
      sum = 0;
      sumSquares = 0;
      magnitude = 0;
      magnitudeSquares = 0;
      changes = 0;
    }
    const d = value - shift;
    sum += d;
    sumSquares += d * d;
    magnitude += Math.abs(d);
    magnitudeSquares += d * d;
    n++;
    changes++;
    const from = (times[i] as number) + MINUTE_MS - windowMs;
    for (; head <= i && (times[head] as number) < from; head++) {
      const old = values[head] as number;
      if (Number.isNaN(old)) continue;
      const e = old - shift;
      sum -= e;
      sumSquares -= e * e;
      magnitude += Math.abs(e);
      magnitudeSquares += e * e;
      n--;
      changes++;
    }
    if (changes >= Math.max(1024, n)) {
      ({ shift, sum, sumSquares, magnitude, magnitudeSquares } = windowSums(
        values,
        head,
        i + 1,
        n,
      ));
      changes = 0;
    }
  }
}

/** The sums of the window [head, end) rebuilt around its mean (NaN values are no closes). */
function windowSums(values: Float64Array, head: number, end: number, n: number) {
  let total = 0;
  for (let j = head; j < end; j++) {
    const v = values[j] as number;
    if (!Number.isNaN(v)) total += v;
  }
  const shift = n > 0 ? total / n : 0;
  let sum = 0;
  let sumSquares = 0;
  let magnitude = 0;
  for (let j = head; j < end; j++) {
    const v = values[j] as number;
    if (Number.isNaN(v)) continue;
    const d = v - shift;
    sum += d;
    sumSquares += d * d;
    magnitude += Math.abs(d);
  }
  return { shift, sum, sumSquares, magnitude, magnitudeSquares: sumSquares };
}

/**
 * Share of the window's closes ≤ the value, × 100, from a Fenwick tree over the closes' ranks
 * among all the series' distinct closes: adding, evicting and counting are O(log n) each and
 * exact (counts, no sums), so it equals SortedMultiset.countAtMost to the last bit.
 */
function rollingPercentile(
  times: Float64Array,
  values: Float64Array,
  windowMs: number,
  minCloses: number,
  out: Float64Array,
): void {
  const { ranks, size } = denseRanks(values);
  const tree = new Int32Array(size + 1);
  let head = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const rank = ranks[i] as number;
    if (rank === 0) continue;
    if (n >= minCloses) {
      let atMost = 0;
      for (let k = rank; k > 0; k -= k & -k) atMost += tree[k] as number;
      out[i] = (atMost / n) * 100;
    }
    for (let k = rank; k <= size; k += k & -k) tree[k] = (tree[k] as number) + 1;
    n++;
    const from = (times[i] as number) + MINUTE_MS - windowMs;
    for (; head <= i && (times[head] as number) < from; head++) {
      const old = ranks[head] as number;
      if (old === 0) continue;
      for (let k = old; k <= size; k += k & -k) tree[k] = (tree[k] as number) - 1;
      n--;
    }
  }
}

const RADIX = 2048;
const DIGIT = RADIX - 1;
/** Longer runs of one float32 key than this are ordered by a comparison sort. */
const SHORT_RUN = 64;

/**
 * Each value's rank among the distinct values, 1 for the smallest (equal values, 0 and −0
 * included, share one); 0 for NaN. An LSD radix sort in three 11-bit passes of each value's
 * order-preserving float32 key (rounding to float32 is monotonic, so it never reverses two
 * doubles, only ties some), then each run of one key put in order by the doubles themselves:
 * real closes rarely share a float32 key unless they are equal, so the fix-up is a check. Half
 * the passes and key arrays of sorting the 64-bit keys; a year of minutes is most of a
 * percentile backtest's time either way.
 */
export function denseRanks(values: Float64Array): { ranks: Int32Array; size: number } {
  const n = values.length;
  const single = new Float32Array(1);
  const bits = new Uint32Array(single.buffer);
  let keys = new Uint32Array(n);
  let order = new Int32Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    if (Number.isNaN(v)) continue;
    single[0] = v;
    const key = bits[0] as number;
    // Negative numbers: all bits flipped (larger magnitude sorts first); positive: sign set.
    keys[m] = key >= 0x8000_0000 ? ~key >>> 0 : (key | 0x8000_0000) >>> 0;
    order[m++] = i;
  }
  let keysNext = new Uint32Array(m);
  let orderNext = new Int32Array(m);
  const counts = new Int32Array(RADIX);
  for (let shift = 0; shift < 32; shift += 11) {
    counts.fill(0);
    for (let j = 0; j < m; j++) {
      const digit = ((keys[j] as number) >>> shift) & DIGIT;
      counts[digit] = (counts[digit] as number) + 1;
    }
    // One digit shared by every key leaves the order as it is.
    if (m === 0 || counts[((keys[0] as number) >>> shift) & DIGIT] === m) continue;
    let total = 0;
    for (let d = 0; d < RADIX; d++) {
      const c = counts[d] as number;
      counts[d] = total;
      total += c;
    }
    for (let j = 0; j < m; j++) {
      const key = keys[j] as number;
      const at = counts[(key >>> shift) & DIGIT] as number;
      counts[(key >>> shift) & DIGIT] = at + 1;
      keysNext[at] = key;
      orderNext[at] = order[j] as number;
    }
    [keys, keysNext] = [keysNext, keys];
    [order, orderNext] = [orderNext, order];
  }
  for (let start = 0; start < m; ) {
    let end = start + 1;
    while (end < m && keys[end] === keys[start]) end++;
    if (end - start > 1) orderRun(values, order, start, end);
    start = end;
  }
  const ranks = new Int32Array(n);
  let size = 0;
  let previous = Number.NaN;
  for (let j = 0; j < m; j++) {
    const i = order[j] as number;
    const v = values[i] as number;
    if (v !== previous) size++;
    previous = v;
    ranks[i] = size;
  }
  return { ranks, size };
}

/** Puts order[start, end) in the order of their values (a run already in order is only read). */
function orderRun(values: Float64Array, order: Int32Array, start: number, end: number): void {
  let sorted = true;
  for (let j = start + 1; j < end && sorted; j++)
    sorted = (values[order[j - 1] as number] as number) <= (values[order[j] as number] as number);
  if (sorted) return;
  if (end - start > SHORT_RUN) {
    const run = Array.from(order.subarray(start, end));
    run.sort((a, b) => (values[a] as number) - (values[b] as number));
    order.set(run, start);
    return;
  }
  for (let j = start + 1; j < end; j++) {
    const index = order[j] as number;
    const v = values[index] as number;
    let k = j - 1;
    for (; k >= start && (values[order[k] as number] as number) > v; k--)
      order[k + 1] = order[k] as number;
    order[k + 1] = index;
  }
}
