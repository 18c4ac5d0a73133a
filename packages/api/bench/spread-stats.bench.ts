// Spread statistics (BENCHMARKS.md §8): the api's SpreadStatsService answering every chart symbol
// at once — what market.statsAll and the Spread table's z column ask once a minute — with each
// symbol's window full of minutes (60 days: 86,400 closes; 20 days: 28,800), measured right
// after a new minute closed for all 13 (the costliest moment: order statistics rebuilt) and
// repeated without one. The closes come from memory, not the database, so the figure is the
// service's own. Printed, never asserted.
import { CHART_SYMBOLS } from "@spreadwatch/core";
import { gaussian, seededRandom } from "../src/feeds/simulator/random.ts";
import { type MinuteClose, SpreadStatsService } from "../src/stats/spread-stats-service.ts";
import { describe, summarize } from "./stats.ts";

const DAYS = 60;
const MINUTE = 60_000;
const RUNS = Number(process.env.BENCH_STATS_RUNS ?? 2_000);
const GOAL_P95_MS = 5;
const end = Math.floor(Date.now() / MINUTE) * MINUTE;

/** A mean-reverting spread per symbol, a minute a close. */
function minutes(seed: number, count: number): MinuteClose[] {
  const random = seededRandom(seed);
  const decay = Math.exp(-1 / 120);
  let value = 0;
  return Array.from({ length: count }, (_, i) => {
    value = value * decay + 50 * Math.sqrt(1 - decay * decay) * gaussian(random);
    return { timestamp: end - (count - i) * MINUTE, close: value };
  });
}

const history = new Map<string, MinuteClose[]>(
  CHART_SYMBOLS.map((symbol, i) => [symbol, minutes(i + 1, DAYS * 1440)]),
);
const service = new SpreadStatsService(async (symbol, days) => {
  const all = history.get(symbol) ?? [];
  return all.slice(all.length - days * 1440);
});
const random = seededRandom(99);

async function answerAll(days: 20 | 60): Promise<number> {
  const started = performance.now();
  await Promise.all(CHART_SYMBOLS.map((s) => service.stats(s, days, gaussian(random) * 50)));
  return performance.now() - started;
}

const heapBefore = process.memoryUsage().heapUsed;
let loadStarted = performance.now();
await answerAll(20);
console.log(`20-day windows loaded in ${(performance.now() - loadStarted).toFixed(0)} ms`);
loadStarted = performance.now();
await answerAll(60);
console.log(`60-day windows loaded in ${(performance.now() - loadStarted).toFixed(0)} ms`);
global.gc?.();
console.log(
  `heap held by the windows: ~${((process.memoryUsage().heapUsed - heapBefore) / 1e6).toFixed(0)} MB (history arrays excluded)`,
);

for (const days of [20, 60] as const) {
  const afterClose: number[] = [];
  const repeated: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const t = end + run * MINUTE;
    for (const symbol of CHART_SYMBOLS) service.minuteClosed(symbol, t, gaussian(random) * 50);
    afterClose.push(await answerAll(days));
    repeated.push(await answerAll(days));
  }
  const first = summarize(afterClose.slice(50));
  const again = summarize(repeated.slice(50));
  console.log(`${days} days, all 13 after a new close: ${describe(first)}`);
  console.log(`${days} days, all 13 repeated:          ${describe(again)}`);
  console.log(`goal p95 ≤ ${GOAL_P95_MS} ms: ${first.p95 <= GOAL_P95_MS ? "met" : "NOT met"}`);
}
