// Hub + core throughput: how many quotes per second MarketHub.ingest takes in, each one applied
// to the prices and its spreads recomputed, with one listener attached as a live server has.
import { defaultDuties, type Quote } from "@spreadwatch/core";
import { seededRandom } from "../src/feeds/random.ts";
import { quoteMakers } from "../src/feeds/simulator.ts";
import { SimulatorModel } from "../src/feeds/simulator-model.ts";
import { MarketHub } from "../src/market/hub.ts";

const QUOTES = 100_000;
const PASSES_PER_ROUND = 10;
const ROUNDS = 7;
const GOAL = 200_000;

/** Realistic quotes in the simulator's mix, made up front so only the hub is timed. */
function makeQuotes(): Quote[] {
  const random = seededRandom(42);
  const model = new SimulatorModel(random, defaultDuties());
  const makers = quoteMakers(model);
  const quotes: Quote[] = [];
  let ts = Date.UTC(2025, 0, 6, 9, 0);
  while (quotes.length < QUOTES) {
    model.step(0.05);
    ts += 50;
    for (const make of makers) if (random() < 0.2) quotes.push(make(ts));
  }
  return quotes;
}

const quotes = makeQuotes();
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
