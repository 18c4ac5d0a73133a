// Hub + core throughput: how many quotes per second MarketHub.ingest takes in, each one applied
// to the prices and its spreads recomputed, with one listener attached as a live server has.
import { defaultDuties } from "@spreadwatch/core";
import { MarketHub } from "../src/market/hub.ts";
import { makeQuotes } from "./quote-mix.ts";

const QUOTES = 100_000;
const PASSES_PER_ROUND = 10;
const ROUNDS = 7;
const GOAL = 200_000;

// Realistic quotes in the simulator's mix (~60/s, so 30 minutes hold 100,000), made up front so
// only the hub is timed.
const quotes = makeQuotes(30, Date.UTC(2025, 0, 6, 9, 0), 42).slice(0, QUOTES);
const hub = new MarketHub(defaultDuties());
let notified = 0;
hub.subscribe(() => {
  notified++;
});

function round(): number {
  const start = performance.now();
  for (let pass = 0; pass < PASSES_PER_ROUND; pass++) {
    for (const quote of quotes) hub.ingest(quote);
  }
  return (quotes.length * PASSES_PER_ROUND) / ((performance.now() - start) / 1000);
}

round(); // warm-up: lets the JIT settle before anything is recorded
const rates = Array.from({ length: ROUNDS }, round).sort((a, b) => a - b);
const median = rates[Math.floor(rates.length / 2)] ?? 0;
const calculated = Object.keys(hub.snapshot().calculations).length - 1;

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
console.log(
  `hub: ${fmt(median)} quotes/s median of ${ROUNDS} rounds × ${fmt(quotes.length * PASSES_PER_ROUND)} quotes ` +
    `(min ${fmt(rates[0] ?? 0)}, max ${fmt(rates.at(-1) ?? 0)}); ${calculated} spreads live, ` +
    `${fmt(notified)} listener calls; goal ≥ ${fmt(GOAL)}/s: ${median >= GOAL ? "met" : "NOT met"}`,
);
console.log(`RESULT ${JSON.stringify({ bench: "hub", quotesPerSecond: Math.round(median) })}`);
