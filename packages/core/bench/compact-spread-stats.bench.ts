/**
 * BENCHMARKS.md §15's measure: rolling statistics for 1,000 user spreads (two sides each, so
 * 2,000 twenty-day windows of 1-minute closes) with heap ≤ 300 MB and every percentile within
 * 0.5 points of the exact value. Fills 2,000 CompactSpreadStats windows with a close every minute
 * to 17:59 (the window's edge inside a summarised day, today three-quarters full), reports the memory they retain
 * after a GC (heap and typed-array buffers), the accuracy against the exact RollingSpreadStats on
 * a sample of the same series, and the time of stats(), quantiles() and add(). Prints figures;
 * asserts nothing (docs/design.md §7).
 *
 *   pnpm --filter @spreadwatch/core exec node --expose-gc --import tsx bench/compact-spread-stats.bench.ts [windows=2000] [days=20]
 */
import { CompactSpreadStats, RollingSpreadStats } from "../src/index.ts";

declare const console: { log(text: string): void };
declare const performance: { now(): number };
declare const process: {
  argv: string[];
  memoryUsage(): { heapUsed: number; arrayBuffers: number };
};
const gc = (globalThis as { gc?: () => void }).gc;

const MINUTE = 60_000;
const windows = Number(process.argv[2] ?? 2000);
const days = Number(process.argv[3] ?? 20);
/** Ends at 17:59, so the window's edge cuts a summarised day at 18:00. */
const END = Date.UTC(2026, 10, 25, 17, 59);
const COUNT = (days + 1) * 1440;
const START = END - (COUNT - 1) * MINUTE;

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A mean-reverting spread with a drift and jumps (a calendar near 300, a ratio near 0.84 …). */
function closes(seed: number): (i: number) => number {
  const rand = random(seed);
  const level = [300, 0.84, -1200, 45][seed % 4] as number;
  const tick = [1, 0.0001, 0.5, 0.01][seed % 4] as number;
  let x = level;
  return (i) => {
    const drift = Math.sin(i / 5000) * Math.abs(level) * 0.01;
    x += 0.01 * (level + drift - x) + (rand() - 0.5) * Math.abs(level) * 0.002;
    if (rand() < 0.0005) x += (rand() - 0.5) * Math.abs(level) * 0.05;
    return Math.round(x / tick) * tick;
  };
}

function memory(): number {
  gc?.();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

function summary(label: string, samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
  const f = (v: number) => v.toFixed(4);
  return `${label.padEnd(44)} p50 ${f(at(50))} ms  p95 ${f(at(95))} ms  p99 ${f(at(99))} ms`;
}

const MB = (bytes: number) => (bytes / 1e6).toFixed(1);

const before = memory();
const started = performance.now();
const all: CompactSpreadStats[] = [];
for (let w = 0; w < windows; w++) {
  const stats = new CompactSpreadStats(days);
  const next = closes(w + 1);
  for (let i = 0; i < COUNT; i++) stats.add(START + i * MINUTE, next(i));
  all.push(stats);
}
const filled = performance.now() - started;
const held = memory() - before;
const closesEach = all[0]?.size ?? 0;
console.log(
  `${windows.toLocaleString("en-US")} compact ${days}-day windows, ${closesEach.toLocaleString("en-US")} closes each, filled in ${(filled / 1000).toFixed(1)} s`,
);
console.log(
  `memory retained (heap + typed-array buffers, after GC): ${MB(held)} MB — ${(held / windows / 1000).toFixed(1)} kB a window, ${(held / windows / closesEach).toFixed(2)} B a close`,
);

// Accuracy against the exact structure, on a sample of the same series: the percentile of
// every exact percentile point, of points between closes, and of random values in the range.
const SAMPLE = Math.min(windows, 40);
let worst = 0;
let total = 0;
let probes = 0;
let worstZ = 0;
let worstMean = 0;
const beforeExact = memory();
const exacts = Array.from({ length: SAMPLE }, (_, w) => {
  const exact = new RollingSpreadStats(days);
  const next = closes(w + 1);
  for (let i = 0; i < COUNT; i++) exact.add(START + i * MINUTE, next(i));
  return exact;
});
const exactHeld = memory() - beforeExact;
for (let w = 0; w < SAMPLE; w++) {
  const exact = exacts[w] as RollingSpreadStats;
  const compact = all[w] as CompactSpreadStats;
  const rand = random(1000 + w);
  const q = exact.quantiles() ?? [];
  const lo = q[0] as number;
  const hi = q[100] as number;
  const values = [...q, ...q.map((v, k) => (v + (q[k + 1] ?? v)) / 2)];
  for (let r = 0; r < 200; r++) values.push(lo + rand() * (hi - lo));
  for (const value of values) {
    const e = exact.stats(value);
    const c = compact.stats(value);
    const error = Math.abs((c.percentile as number) - (e.percentile as number));
    worst = Math.max(worst, error);
    total += error;
    probes++;
    if (e.z !== undefined && c.z !== undefined) worstZ = Math.max(worstZ, Math.abs(c.z - e.z));
    const spread = (e.max as number) - (e.min as number);
    worstMean = Math.max(worstMean, Math.abs((c.mean as number) - (e.mean as number)) / spread);
  }
}
console.log(
  `percentile error vs exact (${SAMPLE} windows, ${probes.toLocaleString("en-US")} values): max ${worst.toFixed(3)} points, mean ${(total / probes).toFixed(4)} points (bound 0.417)`,
);
console.log(
  `z-score error vs exact: max ${worstZ.toExponential(2)}; mean off by at most ${worstMean.toExponential(2)} of the window's range`,
);
exacts.length = 0;
console.log(
  `the exact structure for comparison: ${MB(exactHeld / SAMPLE)} MB a window, so ${MB((exactHeld / SAMPLE) * windows)} MB for ${windows.toLocaleString("en-US")}`,
);

const rand = random(7);
const statsTimes: number[] = [];
const quantileTimes: number[] = [];
const addTimes: number[] = [];
for (let round = 0; round < 2000; round++) {
  const stats = all[Math.floor(rand() * all.length)] as CompactSpreadStats;
  const window = stats.window() as { from: number; to: number };
  let t = performance.now();
  stats.stats(rand() * 100);
  statsTimes.push(performance.now() - t);
  if (round % 10 === 0) {
    t = performance.now();
    stats.quantiles();
    quantileTimes.push(performance.now() - t);
  }
  // Today's minute again (a replacement): the new day's close would change the measured state.
  t = performance.now();
  stats.add(window.to - MINUTE, rand());
  addTimes.push(performance.now() - t);
}
console.log(summary("stats() of one window", statsTimes));
console.log(summary("quantiles() of one window (101 values)", quantileTimes));
console.log(summary("add() replacing today's minute", addTimes));
const dayTimes: number[] = [];
for (let w = 0; w < Math.min(200, windows); w++) {
  const stats = all[w] as CompactSpreadStats;
  const t = performance.now();
  stats.add(Date.UTC(2026, 10, 26), 1); // midnight: today is summarised, the oldest day leaves
  dayTimes.push(performance.now() - t);
}
console.log(summary("add() at midnight (a day summarised)", dayTimes));
console.log(
  `RESULT ${JSON.stringify({
    bench: "compact-spread-stats",
    windows,
    days,
    heldMB: Number(MB(held)),
    worstPercentileError: worst,
    meanPercentileError: total / probes,
  })}`,
);
