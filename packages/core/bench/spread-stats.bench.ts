/**
 * BENCHMARKS.md §8's goal: stats() for all 13 chart symbols together, p95 ≤ 5 ms, with the window
 * full (60 days × 1,440 one-minute closes = 86,400 per symbol, the largest window), plus the
 * cost of add() and of the backfill. Prints figures; asserts nothing (docs/design.md §7).
 *
 *   pnpm --filter @spreadwatch/core exec tsx bench/spread-stats.bench.ts [days=60] [minutes=2000]
 *   pnpm --filter @spreadwatch/core exec node --expose-gc --import tsx bench/spread-stats.bench.ts
 */
import { CHART_SYMBOLS, RollingSpreadStats } from "../src/index.ts";

declare const console: { log(text: string): void };
declare const performance: { now(): number };
declare const process: { argv: string[]; memoryUsage(): { heapUsed: number } };

const DAY_MINUTES = 1440;
const MINUTE = 60_000;
const START = Date.UTC(2026, 8, 1, 3, 30);

const days = Number(process.argv[2] ?? 60);
const steps = Number(process.argv[3] ?? 2000);

/** A deterministic PRNG (mulberry32) so every run measures the same data. */
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

/** A mean-reverting spread around `level` (an Ornstein–Uhlenbeck step per minute). */
function spreadWalk(seed: number, level: number): () => number {
  const rand = random(seed);
  let x = level;
  return () => {
    x += 0.01 * (level - x) + (rand() - 0.5) * level * 0.002;
    return Math.round(x * 100) / 100;
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

function summary(label: string, samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  const f = (v: number) => v.toFixed(4);
  return `${label.padEnd(44)} p50 ${f(percentile(s, 50))} ms  p95 ${f(percentile(s, 95))} ms  max ${f(s[s.length - 1] as number)} ms`;
}

const symbols = CHART_SYMBOLS.map((symbol, i) => ({
  symbol,
  stats: new RollingSpreadStats(days),
  next: spreadWalk(i + 1, 100 + 50 * i),
}));
const full = days * DAY_MINUTES;

console.log(
  `spread-stats bench: ${symbols.length} symbols, ${days}-day windows (${full.toLocaleString("en")} closes each), ${steps} minutes after backfill`,
);

// With node --expose-gc the heap figures are what the windows retain; without, growth incl. garbage.
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const heapBefore = process.memoryUsage().heapUsed;
let t = performance.now();
for (const s of symbols) for (let m = 0; m < full; m++) s.stats.add(START + m * MINUTE, s.next());
const backfill = performance.now() - t;
console.log(
  `backfill ${(backfill / 1000).toFixed(2)} s for ${(full * symbols.length).toLocaleString("en")} closes (${((backfill * 1000) / (full * symbols.length)).toFixed(2)} µs per add)`,
);
gc?.();
const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
console.log(
  `heap ${gc ? "retained by" : "grown (no --expose-gc) for"} the 13 windows: ~${heapMb.toFixed(0)} MB (${((heapMb * 1e6) / (full * symbols.length)).toFixed(0)} B per close)`,
);

const addAll: number[] = [];
const statsAfterAdd: number[] = [];
const statsRepeat: number[] = [];
const replace: number[] = [];
for (let step = 0; step < steps; step++) {
  const minute = START + (full + step) * MINUTE;
  const closes = symbols.map((s) => s.next());
  t = performance.now();
  for (const [i, s] of symbols.entries()) s.stats.add(minute, closes[i] as number);
  addAll.push(performance.now() - t);
  // The first query after a candle closes rebuilds the block counts; later ones do not.
  t = performance.now();
  for (const s of symbols) s.stats.stats(s.next());
  statsAfterAdd.push(performance.now() - t);
  t = performance.now();
  for (const s of symbols) s.stats.stats(s.next());
  statsRepeat.push(performance.now() - t);
  // A re-sent candle for the same minute replaces its close.
  t = performance.now();
  for (const s of symbols) s.stats.add(minute, s.next());
  replace.push(performance.now() - t);
}

console.log(summary("add() of a new minute, 13 symbols", addAll));
console.log(summary("add() replacing a minute, 13 symbols", replace));
console.log(summary("stats() 13 symbols, first after a new close", statsAfterAdd));
console.log(summary("stats() 13 symbols, repeated", statsRepeat));
console.log(`window now n = ${symbols[0]?.stats.stats(0).n}`);
