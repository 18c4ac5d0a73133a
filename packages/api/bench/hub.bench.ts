// Hub + core throughput: how many quotes per second MarketHub.ingest takes in, each one applied
// to the prices and its spreads recomputed, with one listener attached as a live server has.
// Two hubs in one run (BENCHMARKS.md §14): the fifteen built-in keys in the simulator's mix, and
// 300 instruments in use (every shipped one plus custom keys) in the server's own catalogue,
// which the hub asks about every quote as composition.ts wires it, all 300 quoting.
//   BENCH_HUB_INSTRUMENTS=300
import { defaultDuties, type Quote, type QuoteSource } from "@spreadwatch/core";
import { MarketHub } from "../src/market/hub.ts";
import { catalogueInUse, catalogueOf, makeCatalogueQuotes } from "./catalogue-quotes.ts";
import { makeQuotes } from "./quote-mix.ts";

const QUOTES = 100_000;
const PASSES_PER_ROUND = 10;
const ROUNDS = 7;
const GOAL = 200_000;
const INSTRUMENTS = Number(process.env.BENCH_HUB_INSTRUMENTS ?? 300);
const START = Date.UTC(2025, 0, 6, 9, 0);

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

function measure(hub: MarketHub, quotes: readonly Quote[]) {
  let notified = 0;
  hub.subscribe(() => {
    notified++;
  });
  const accepted = quotes.filter((q) => hub.ingest(q)).length;
  if (accepted !== quotes.length) {
    throw new Error(`the hub refused ${quotes.length - accepted} of the bench's quotes`);
  }
  const round = () => {
    const start = performance.now();
    for (let pass = 0; pass < PASSES_PER_ROUND; pass++) {
      for (const quote of quotes) hub.ingest(quote);
    }
    return (quotes.length * PASSES_PER_ROUND) / ((performance.now() - start) / 1000);
  };
  round(); // warm-up: lets the JIT settle before anything is recorded
  const rates = Array.from({ length: ROUNDS }, round).sort((a, b) => a - b);
  const snapshot = hub.snapshot();
  return {
    median: rates[Math.floor(rates.length / 2)] ?? 0,
    min: rates[0] ?? 0,
    max: rates.at(-1) ?? 0,
    calculated: Object.keys(snapshot.calculations).length - 1,
    priced: ["cme", "mcx", "spot", "zerodha", "fx"].reduce(
      (n, section) => n + Object.keys(snapshot.prices[section as "cme"]).length,
      0,
    ),
    notified,
  };
}

/** `instruments` in use, `quoting` of them sending quotes. */
function report(
  label: string,
  instruments: number,
  quoting: number,
  quotes: readonly Quote[],
  hub: MarketHub,
) {
  const r = measure(hub, quotes);
  console.log(
    `hub (${label}): ${fmt(r.median)} quotes/s median of ${ROUNDS} rounds × ${fmt(quotes.length * PASSES_PER_ROUND)} quotes ` +
      `(min ${fmt(r.min)}, max ${fmt(r.max)}); ${r.priced} instruments priced, ${r.calculated} spreads live, ` +
      `${fmt(r.notified)} listener calls; goal ≥ ${fmt(GOAL)}/s: ${r.median >= GOAL ? "met" : "NOT met"}`,
  );
  console.log(
    `RESULT ${JSON.stringify({ bench: "hub", instruments, quoting, quotesPerSecond: Math.round(r.median), minQuotesPerSecond: Math.round(r.min) })}`,
  );
}

// Realistic quotes in the simulator's mix (~60/s, so 30 minutes hold 100,000), made up front so
// only the hub is timed.
const fifteen = makeQuotes(30, START, 42).slice(0, QUOTES);
report("15 built-in keys", 15, 15, fifteen, new MarketHub(defaultDuties()));

const specs = catalogueInUse(INSTRUMENTS);
const custom = specs.filter((s) => s.key.startsWith("CUSTOM")).length;
const catalogueQuotes = makeCatalogueQuotes(specs, QUOTES, START, 42);
const catalogue = await catalogueOf(specs);
const inUse = (source: QuoteSource, key: string) => catalogue.accepts(source, key);
report(
  `${INSTRUMENTS} in use, all quoting: ${INSTRUMENTS - custom} shipped + ${custom} custom`,
  INSTRUMENTS,
  INSTRUMENTS,
  catalogueQuotes,
  new MarketHub(defaultDuties(), undefined, inUse),
);

// Most of the 300's quotes touch no spread, so that hub runs faster per quote than the fifteen.
// The costly quotes alone: the fifteen's mix through the same catalogue hub, every other
// instrument priced first (bigger price maps, the catalogue predicate on every quote).
const big = new MarketHub(defaultDuties(), undefined, inUse);
for (const quote of catalogueQuotes.slice(0, INSTRUMENTS * 2)) big.ingest(quote);
report(`${INSTRUMENTS} in use, only the 15 built-in keys quoting`, INSTRUMENTS, 15, fifteen, big);
