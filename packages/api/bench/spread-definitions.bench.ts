// Issue 21: 1,000 spread definitions over 200 instruments in use (every shipped instrument and
// 120 custom ones), evaluated by the real MarketHub as composition.ts builds it (the registry
// of the built-ins and the stored definitions, the catalogue asked about every quote, one
// listener). Two figures:
//  A. time per quote to update every definition the quote touches (and only those): each
//     ingest timed on its own, over the catalogue's quote mix (every instrument quoting), with a
//     listener reading every recomputed symbol (the hub evaluates a definition when it is read);
//  B. hub throughput with them loaded: quotes/s over the same mix, median of 7 rounds, with a
//     listener reading nothing (as hub.bench.ts), with the stream's snapshot after every 50 ms
//     step, and with the listener of A.
// Printed, never asserted.
//   BENCH_DEFINITIONS=1000  BENCH_DEFINITION_INSTRUMENTS=200
import {
  defaultDuties,
  type InstrumentSpec,
  paritySpread,
  type QuoteSource,
  type SpreadDefinition,
} from "@spreadwatch/core";
import { seededRandom } from "../src/feeds/simulator/random.ts";
import { DEFINITION_EVERY_MS, MarketHub } from "../src/market/hub.ts";
import {
  catalogueInUse,
  catalogueOf,
  makeCatalogueQuotes,
  registryOf,
} from "./catalogue-quotes.ts";
import { describe, summarize } from "./stats.ts";

const DEFINITIONS = Number(process.env.BENCH_DEFINITIONS ?? 1000);
const INSTRUMENTS = Number(process.env.BENCH_DEFINITION_INSTRUMENTS ?? 200);
const QUOTES = 100_000;
const PASSES_PER_ROUND = 5;
const ROUNDS = 7;
const P99_GOAL_MS = 0.2;
const THROUGHPUT_GOAL = 200_000;
const START = Date.UTC(2025, 0, 6, 9, 0);
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/**
 * `count` definitions as desks write them, over `specs`: a fifth parities against USDINR (three
 * legs, the costliest), calendars and spreads of two legs, ratios, and baskets of three or four
 * legs; a tenth shared, the rest private to 20 users (the 50-per-user limit allows 1,000 so).
 */
function definitions(specs: readonly InstrumentSpec[], count: number): SpreadDefinition[] {
  const random = seededRandom(21);
  const keys = specs.map((s) => s.key).filter((key) => key !== "USDINR");
  const pick = () => keys[Math.floor(random() * keys.length)] as string;
  const distinct = (n: number) => {
    const chosen = new Set<string>();
    while (chosen.size < n) chosen.add(pick());
    return [...chosen];
  };
  const out: SpreadDefinition[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    let input: Pick<SpreadDefinition, "name" | "legs" | "formula">;
    if (roll < 0.2) {
      const [m, c] = distinct(2) as [string, string];
      input = paritySpread(m, c, "10 / TROY_OUNCE_GRAMS", Math.round(random() * 15) / 100);
    } else if (roll < 0.55) {
      const [a, b] = distinct(2) as [string, string];
      input = {
        name: "two legs",
        legs: [
          { name: "a", instrument: a, lots: 1 },
          { name: "b", instrument: b, lots: 1 },
        ],
        formula: random() < 0.5 ? "a - b" : `a - b * ${(0.5 + random()).toFixed(3)}`,
      };
    } else if (roll < 0.8) {
      const [a, b] = distinct(2) as [string, string];
      input = {
        name: "ratio",
        legs: [
          { name: "a", instrument: a },
          { name: "b", instrument: b },
        ],
        formula: "a / b",
      };
    } else {
      const legs = distinct(random() < 0.5 ? 3 : 4);
      const names = ["a", "b", "c", "d"].slice(0, legs.length);
      input = {
        name: "basket",
        legs: legs.map((instrument, k) => ({ name: names[k] as string, instrument })),
        formula: legs.length === 3 ? "(a + b) / 2 - c" : "a + b - (c + d) * 0.5",
      };
    }
    const id = i + 1;
    const shared = i % 10 === 0;
    out.push({
      ...input,
      id,
      symbol: `SP${id}`,
      shared,
      builtin: false,
      ownerId: 2 + (i % 20),
      createdAt: 0,
      updatedAt: 0,
    });
  }
  return out;
}

const duties = defaultDuties();
const specs = catalogueInUse(INSTRUMENTS);
const catalogue = await catalogueOf(specs);
const spreads = await registryOf(duties, catalogue, definitions(specs, DEFINITIONS));
const inUse = (source: QuoteSource, key: string) => catalogue.accepts(source, key);
// As composition.ts makes it: definitions' published entries change at most once a second, on
// the quotes' own clock here (the bench runs them far faster than they come).
let clock = START;
/**
 * Added to the quotes' times at each replay of them, so the clock runs on (replayed as they are,
 * the definitions' once-a-second release would wait for the first pass's last second).
 */
let clockOffset = 0;
const hub = new MarketHub(duties, undefined, inUse, spreads, {
  definitionEveryMs: DEFINITION_EVERY_MS,
  now: () => clock,
});
/** What the listener does with each update: nothing, or read every recomputed symbol's entry. */
let readEvery = false;
let notified = 0;
let sink = 0;
hub.subscribe((update) => {
  notified++;
  clock = update.quote.ts + clockOffset;
  if (!readEvery) return;
  for (const symbol of update.symbols) sink += update.calculations[symbol]?.spread ?? 0;
});
const quotes = makeCatalogueQuotes(specs, QUOTES, START, 42);
const span = (quotes.at(-1)?.ts ?? START) - START + 1_000;
const replay = () => {
  clockOffset += span;
};
if (quotes.filter((q) => hub.ingest(q)).length !== quotes.length)
  throw new Error("the hub refused some of the bench's quotes");

// Which definitions each instrument's quote must update: those with a leg on it.
const touching = new Map<string, number>();
for (const spread of spreads.all())
  if (spread.checked && !["XAU_SPOT", "XAG_SPOT", "NIFTY"].includes(spread.symbol))
    for (const key of new Set(spread.legs.map((leg) => leg.instrument)))
      touching.set(key, (touching.get(key) ?? 0) + 1);

// A. Every ingest timed alone, after a warm-up pass, with a listener reading every symbol the
// quote recomputed: each definition with a leg on the quote's instrument is evaluated in it.
readEvery = true;
replay();
for (const quote of quotes) hub.ingest(quote);
const times: number[] = [];
const usdinr: number[] = [];
/** USDINR's quotes in CPU time: what the hub costs them, without the shared machine's waits. */
const usdinrCpu: number[] = [];
const bare: number[] = [];
let expected = 0;
const evaluationsBefore = hub.evaluations;
for (let pass = 0; pass < 3; pass++) {
  replay();
  for (const quote of quotes) {
    const cpu = quote.key === "USDINR" ? process.cpuUsage() : undefined;
    const start = performance.now();
    hub.ingest(quote);
    const ms = performance.now() - start;
    times.push(ms);
    expected += touching.get(quote.key) ?? 0;
    if (cpu === undefined) continue;
    usdinr.push(ms);
    const used = process.cpuUsage(cpu);
    usdinrCpu.push((used.user + used.system) / 1000);
  }
}
const evaluated = hub.evaluations - evaluationsBefore;
readEvery = false;
replay();
for (const quote of quotes) {
  const start = performance.now();
  hub.ingest(quote);
  bare.push(performance.now() - start);
}
const all = summarize(times);
const perTouched = [...touching.values()];
console.log(
  `spread definitions: ${DEFINITIONS} over ${INSTRUMENTS} instruments (${spreads.all().length} in the registry with the built-ins); ` +
    `a quote's instrument is in ${(perTouched.reduce((a, b) => a + b, 0) / INSTRUMENTS).toFixed(1)} definitions on average, ` +
    `USDINR in ${touching.get("USDINR")}, the most-used other in ${Math.max(...[...touching].filter(([k]) => k !== "USDINR").map(([, n]) => n))}`,
);
console.log(
  `  evaluated ${fmt(evaluated)} definitions for ${fmt(times.length)} quotes: ${evaluated === expected ? "exactly" : "NOT"} those with a leg on the quote's instrument (${fmt(expected)})`,
);
console.log(`  time per quote, every touched definition evaluated: ${describe(all)}`);
console.log(
  `    of which USDINR's quotes (${touching.get("USDINR")} definitions): ${describe(summarize(usdinr))}`,
);
console.log(
  `    the same in CPU time (process.cpuUsage, µs resolution): ${describe(summarize(usdinrCpu))}`,
);
console.log(
  `  time per quote, ingest alone (definitions made stale): ${describe(summarize(bare))}`,
);
console.log(
  `  goal p99 ≤ ${P99_GOAL_MS} ms: ${all.p99 <= P99_GOAL_MS ? "met" : "NOT met"} (every quote), ` +
    `${summarize(usdinr).p99 <= P99_GOAL_MS ? "met" : "NOT met"} (USDINR's, the costliest)`,
);

// B. Throughput over the same mix: a listener that reads nothing (as hub.bench.ts); the same
// with the stream's snapshot every 25 ms of the run (its fastest rhythm, docs/design.md §3: every
// stale definition evaluated then); and a listener reading every recomputed symbol at every
// quote (each touched definition evaluated at every quote, as A).
const throughput = (label: string, snapshots: boolean, read: boolean) => {
  readEvery = read;
  let taken = 0;
  const cpuRates: number[] = [];
  const round = () => {
    const start = performance.now();
    const cpu = process.cpuUsage();
    let last = start;
    for (let pass = 0; pass < PASSES_PER_ROUND; pass++) {
      replay();
      for (let i = 0; i < quotes.length; i++) {
        hub.ingest(quotes[i] as (typeof quotes)[number]);
        if (snapshots && (i & 63) === 0 && performance.now() - last >= 25) {
          hub.state();
          last = performance.now();
          taken++;
        }
      }
    }
    const wall = (performance.now() - start) / 1000;
    const used = process.cpuUsage(cpu);
    cpuRates.push((quotes.length * PASSES_PER_ROUND) / ((used.user + used.system) / 1e6));
    return (quotes.length * PASSES_PER_ROUND) / wall;
  };
  round();
  taken = 0;
  cpuRates.length = 0;
  const rates = Array.from({ length: ROUNDS }, round).sort((a, b) => a - b);
  const median = rates[Math.floor(ROUNDS / 2)] ?? 0;
  const perCpuSecond = cpuRates.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] ?? 0;
  console.log(
    `  hub throughput, ${label}: ${fmt(median)} quotes/s median of ${ROUNDS} rounds × ${fmt(quotes.length * PASSES_PER_ROUND)} quotes ` +
      `(min ${fmt(rates[0] ?? 0)}, max ${fmt(rates.at(-1) ?? 0)})${snapshots ? `, ${fmt(taken)} snapshots` : ""}; ` +
      `goal ≥ ${fmt(THROUGHPUT_GOAL)}/s: ${median >= THROUGHPUT_GOAL ? "met" : "NOT met"}; ` +
      `${fmt(perCpuSecond)} quotes per CPU-second`,
  );
  return { median, min: rates[0] ?? 0, perCpuSecond };
};
const plain = throughput("a listener reading nothing", false, false);
const streamed = throughput("a snapshot every 25 ms", true, false);
const eager = throughput("a listener reading every recomputed symbol", false, true);

// What the stream's snapshot costs in the quote mix's own rhythm: one per 50 ms step (~40 quotes),
// as the simulator feeds a server; every second of quotes, each definition they touched is
// evaluated and published in it.
readEvery = false;
const snapshotTimes: number[] = [];
/** The snapshots that published the definitions' held-back entries (once a second of quotes). */
const releaseTimes: number[] = [];
for (let pass = 0; pass < 2; pass++) {
  replay();
  for (let i = 0; i < quotes.length; i++) {
    hub.ingest(quotes[i] as (typeof quotes)[number]);
    if ((quotes[i + 1]?.ts ?? 0) !== (quotes[i]?.ts ?? 0)) {
      const due = hub.heldBackUntil;
      const start = performance.now();
      hub.state();
      const ms = performance.now() - start;
      if (pass === 0) continue;
      snapshotTimes.push(ms);
      if (due !== undefined && clock >= due) releaseTimes.push(ms);
    }
  }
}
console.log(`  snapshot after each 50 ms step of quotes: ${describe(summarize(snapshotTimes))}`);
console.log(
  `    of which those publishing the definitions' entries (once a second): ${describe(summarize(releaseTimes))}`,
);
const live = Object.keys(hub.snapshot().calculations).length - 1;
console.log(`  ${live} entries everybody sees; ${fmt(notified)} listener calls (${sink !== 0})`);
console.log(
  `RESULT ${JSON.stringify({ bench: "spread-definitions", definitions: DEFINITIONS, instruments: INSTRUMENTS, p50Ms: all.p50, p99Ms: all.p99, maxMs: all.max, usdinrP99Ms: summarize(usdinr).p99, usdinrCpuP99Ms: summarize(usdinrCpu).p99, quotesPerSecond: Math.round(plain.median), withSnapshots: Math.round(streamed.median), readingEvery: Math.round(eager.median), readingEveryPerCpuSecond: Math.round(eager.perCpuSecond), snapshotP99Ms: summarize(snapshotTimes).p99 })}`,
);
