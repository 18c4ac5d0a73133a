// Issue 22: the leader's work for position alerts per quote, with 10,000 open positions across
// 1,000 users on the five built-in spreads and 100 definitions, each with a target and a stop.
// The real MarketHub (built-ins + definitions, as composition.ts builds it) is fed the catalogue's
// quote mix; a first listener reads every recomputed symbol (the history recorder and the alert
// engine do so on the leader, so a definition is evaluated there, not in position alerts), the
// LegWatch learns each arrival (the engine's), and then PositionAlerts.onUpdate is timed alone:
// finding the positions on the touched exit symbols, their costs, net ₹ and the crossings.
// Crossings are recorded by a store that only counts (the write is queued, off the quote path).
// Printed, never asserted.
//   BENCH_POSITIONS=10000  BENCH_POSITION_USERS=1000  BENCH_POSITION_DEFINITIONS=100
import { loadavg } from "node:os";
import {
  defaultCostRates,
  defaultDuties,
  definitionUnits,
  type InstrumentSpec,
  perLot,
  type SpreadDefinition,
  type SpreadSymbol,
} from "@spreadwatch/core";
import type { PositionCrossing, RecordedPositionCrossing } from "@spreadwatch/db";
import { LegWatch } from "../src/alerts/leg-watch.ts";
import { seededRandom } from "../src/feeds/simulator/random.ts";
import { log } from "../src/log.ts";
import { DEFINITION_EVERY_MS, type LiveEntry, MarketHub } from "../src/market/hub.ts";
import type { WatchedPosition } from "../src/positions/position-alert-source.ts";
import { PositionAlerts } from "../src/positions/position-alerts.ts";
import { exitSymbolOf, liveCostsPerLot, netInr } from "../src/positions/position-net.ts";
import {
  catalogueInUse,
  catalogueOf,
  makeCatalogueQuotes,
  registryOf,
} from "./catalogue-quotes.ts";
import { describe, summarize } from "./stats.ts";

const POSITIONS = Number(process.env.BENCH_POSITIONS ?? 10_000);
const USERS = Number(process.env.BENCH_POSITION_USERS ?? 1_000);
const DEFINITIONS = Number(process.env.BENCH_POSITION_DEFINITIONS ?? 100);
const INSTRUMENTS = 80;
/** Quotes to value the spreads before the positions are placed, to warm up, and to time. */
const PLACE = 20_000;
const WARM = 100_000;
const TIMED = 300_000;
const P99_GOAL_MS = 0.2;
const START = Date.UTC(2025, 0, 6, 9, 0);
const BUILT_IN_SPREADS = ["GC", "SI", "HG", "CL", "NG"];
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/** Two-leg spreads with lots (so they have rupee units and costs), a fifth against USDINR. */
function definitions(specs: readonly InstrumentSpec[], count: number): SpreadDefinition[] {
  const random = seededRandom(22);
  const keys = specs.map((s) => s.key).filter((key) => key !== "USDINR");
  const pick = () => keys[Math.floor(random() * keys.length)] as string;
  const out: SpreadDefinition[] = [];
  for (let i = 0; i < count; i++) {
    let a = pick();
    let b = pick();
    while (b === a) b = pick();
    // MCX first where there is one: the rupee leg gives the units.
    if (specs.find((s) => s.key === b)?.currency === "INR") [a, b] = [b, a];
    const parity = i % 5 === 0;
    out.push({
      name: `desk ${i + 1}`,
      legs: [
        { name: "a", instrument: a, lots: 1 },
        { name: "b", instrument: b, lots: 1 },
        ...(parity ? [{ name: "fx", instrument: "USDINR" }] : []),
      ],
      formula: parity ? "a - b * fx / 100" : "a - b",
      id: i + 1,
      symbol: `SP${i + 1}`,
      shared: i % 10 === 0,
      builtin: false,
      ownerId: 2 + (i % 20),
      createdAt: 0,
      updatedAt: 0,
    });
  }
  return out;
}

// A line per firing would time the terminal, not the alerts.
log.level = "warn";
const duties = defaultDuties();
const rates = defaultCostRates();
const specs = catalogueInUse(INSTRUMENTS);
const catalogue = await catalogueOf(specs);
const spreads = await registryOf(duties, catalogue, definitions(specs, DEFINITIONS));
let clock = START;
const hub = new MarketHub(duties, rates, (s, k) => catalogue.accepts(s, k), spreads, {
  definitionEveryMs: DEFINITION_EVERY_MS,
  now: () => clock,
});
// One continuous walk: a replay of the same quotes would jump every price back to its start.
const quotes = makeCatalogueQuotes(specs, PLACE + WARM + TIMED, START, 42);
const legs = new LegWatch({ silenceMs: Number.POSITIVE_INFINITY, now: () => clock });
for (const spread of spreads.all())
  if (!spread.builtin)
    for (const side of ["BUY", "SELL"])
      legs.setLegs(
        `${spread.symbol}_${side}`,
        spread.legs.map((leg) => leg.instrument),
      );

// The recorder's and the engine's reading, before position alerts see the update.
let sink = 0;
hub.subscribe((update) => {
  clock = update.quote.ts;
  legs.arrived(update.quote.key, clock);
  for (const symbol of update.symbols) sink += update.calculations[symbol]?.spread ?? 0;
});

const specOf = (key: string) => catalogue.get(key);
const costs = liveCostsPerLot(spreads, specOf, () => rates);
const random = seededRandom(2022);
// Each symbol's latest entry as listeners see it (a private definition's is in no snapshot).
const latest = new Map<string, LiveEntry>();
hub.subscribe((update) => {
  const calculations = update.calculations as unknown as Record<string, LiveEntry | undefined>;
  for (const symbol of update.symbols) {
    const entry = calculations[symbol];
    if (entry) latest.set(symbol, entry);
  }
});
for (const quote of quotes.slice(0, PLACE)) hub.ingest(quote);
const live = (symbol: string) => latest.get(symbol);

const choices = [
  ...BUILT_IN_SPREADS,
  ...spreads
    .all()
    .filter((s) => !s.builtin)
    .map((s) => s.symbol),
];
const positions: WatchedPosition[] = [];
for (let id = 1; positions.length < POSITIONS; id++) {
  const spread = choices[Math.floor(random() * choices.length)] as string;
  const side = random() < 0.5 ? "BUY" : "SELL";
  const entry = live(`${spread}_${side}`);
  const exit = live(exitSymbolOf({ spread, side }));
  if (!entry || !exit) continue;
  const definition = spreads.bySymbolName(spread);
  const units = BUILT_IN_SPREADS.includes(spread)
    ? (perLot(`${spread}_SELL` as SpreadSymbol, exit as never, (exit as { usdinr: number }).usdinr)
        ?.units ?? 1)
    : (definitionUnits(definition?.legs ?? [], specOf) ?? 1);
  const lots = 1 + Math.floor(random() * 5);
  const position: WatchedPosition = {
    id,
    ownerId: 1 + Math.floor(random() * USERS),
    spread,
    side,
    lots,
    // Entered a little away from now, so nets start spread out around zero.
    entry: entry.spread * (1 + (random() - 0.5) * 0.002),
    units,
    targetInr: null,
    stopInr: null,
  };
  // Levels as a trader sets them, 1 % to 8 % of the position's notional (its dearest leg's price
  // × units × lots) away from the net now.
  const now = netInr(
    position,
    exit.spread,
    costs(exitSymbolOf(position), exit, hub.snapshot().prices) ?? 0,
  );
  const legPrices = "legs" in exit ? Object.values(exit.legs).map((leg) => leg.price) : [exit.mcx];
  const scale = Math.max(100, Math.max(...legPrices.map(Math.abs)) * units * lots * 0.01);
  position.targetInr = Math.round(now + scale * (1 + random() * 7));
  position.stopInr = Math.round(now - scale * (1 + random() * 7));
  positions.push(position);
}
const perSymbol = new Map<string, number>();
for (const p of positions) {
  const symbol = exitSymbolOf(p);
  perSymbol.set(symbol, (perSymbol.get(symbol) ?? 0) + 1);
}

let fired = 0;
let held = 0;
const store = {
  firings: {
    list: async () => [],
    recordPositionCrossings: async (crossings: readonly PositionCrossing[]) => {
      for (const c of crossings) c.state === "fired" ? fired++ : held++;
      return crossings.map((): RecordedPositionCrossing => ({ firingId: 1, outbox: [] }));
    },
  },
};
const alerts = new PositionAlerts(
  store,
  { listWatched: async () => positions },
  { legs, costs, onQueued: () => {} },
);
await alerts.start();

const times: number[] = [];
const touchedTimes: number[] = [];
/** CPU time of the process in the same calls: what the figure is without other processes' preemption. */
const cpuTimes: number[] = [];
let judged = 0;
let timing = false;
hub.subscribe((update) => {
  if (!timing) {
    alerts.onUpdate(update);
    return;
  }
  let onTouched = 0;
  for (const symbol of update.symbols) onTouched += perSymbol.get(symbol) ?? 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  alerts.onUpdate(update);
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  cpuTimes.push((used.user + used.system) / 1000);
  times.push(ms);
  judged += onTouched;
  if (onTouched > 0) touchedTimes.push(ms);
});
// A warm-up (the first value of each group only records where its nets stand), then the timed quotes.
for (const quote of quotes.slice(PLACE, PLACE + WARM)) hub.ingest(quote);
timing = true;
for (const quote of quotes.slice(PLACE + WARM)) hub.ingest(quote);
await alerts.idle();

const all = summarize(times);
const touched = summarize(touchedTimes);
const users = new Set(positions.map((p) => p.ownerId)).size;
console.log(
  `positions: ${fmt(positions.length)} open with a target and a stop, ${fmt(users)} users, on ${choices.length} spreads ` +
    `(${BUILT_IN_SPREADS.length} built-in, ${choices.length - BUILT_IN_SPREADS.length} definitions) = ${perSymbol.size} exit symbols; ` +
    `${fmt(positions.length / perSymbol.size)} positions per exit symbol on average, the most ${Math.max(...perSymbol.values())}`,
);
console.log(
  `  ${fmt(times.length)} quotes over ${INSTRUMENTS} instruments: ${fmt(judged)} positions on the exit symbols the quotes recomputed (${(judged / times.length).toFixed(1)} a quote; ` +
    `only the levels between an exit's last value and its new one are looked at); ${fmt(fired)} fired, ${fmt(held)} held (${sink !== 0})`,
);
console.log(`  position alerts per quote, every quote: ${describe(all)}`);
console.log(`  position alerts per quote, quotes touching a position: ${describe(touched)}`);
const cpu = summarize(cpuTimes);
console.log(
  `  CPU time of the process in those calls (not counting time other processes took the core; ~2 µs is the clock itself): ${describe(cpu)}`,
);
console.log(
  `  machine load average now: ${loadavg()
    .map((n) => n.toFixed(2))
    .join(", ")}`,
);
console.log(`  goal p99 ≤ ${P99_GOAL_MS} ms: ${all.p99 <= P99_GOAL_MS ? "met" : "NOT met"}`);
console.log(
  `RESULT ${JSON.stringify({ bench: "positions", positions: positions.length, users, spreads: choices.length, p50Ms: all.p50, p99Ms: all.p99, maxMs: all.max, touchedP99Ms: touched.p99, cpuP99Ms: cpu.p99, load: loadavg()[0], perQuote: judged / times.length, fired })}`,
);
