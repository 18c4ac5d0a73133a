// Server-side alert engine (BENCHMARKS.md §4), two figures:
//  A. Time per hub update with 100,000 enabled Telegram alerts over the ten spread symbols: the
//     real AlertEngine on a real MarketHub and a temp SQLite, fed the simulator's quote mix. Every
//     firing writes its transaction and outbox row inside the update, so quiet updates and updates
//     that fire are reported apart.
//  B. Crossing tick → Telegram request received, through the real server (manual feed, outbox
//     sender, grammY) to FakeTelegram on loopback, one firing per tick, then one burst of 100.
// Printed, never asserted.
import {
  defaultDuties,
  isSpreadSymbol,
  SPREAD_SYMBOLS,
  type SpreadSymbol,
} from "@spreadwatch/core";
import { sqliteStore } from "@spreadwatch/db";
import { createTestDatabase } from "@spreadwatch/db/testing";
import { AlertEngine } from "../src/alerts/engine.ts";
import { gaussian, seededRandom } from "../src/feeds/simulator/random.ts";
import { MarketHub } from "../src/market/hub.ts";
import { FakeTelegram } from "../test/fake-telegram.ts";
import { HttpClient } from "../test/http-client.ts";
import { ADMIN, manualFeed, startTestServer } from "../test/server.ts";
import { makeQuotes } from "./quote-mix.ts";
import { describe, type Summary, summarize } from "./stats.ts";

const ALERTS = 100_000;
/** 100 alerts each: the per-user cap, so the fewest users that can own 100,000 alerts. */
const USERS = 1_000;
/** Quote time fed before the engine starts: the spreads' level and spread come from it. */
const HISTORY_MINUTES = 10;
/** Quote time measured, at the simulator's ~60 quotes/s. */
const MEASURE_MINUTES = Number(process.env.BENCH_ALERT_MINUTES ?? 30);
/** Thresholds are drawn from N(spread at start, (k × sd of the spread over the history))². */
const THRESHOLD_SD_FACTOR = 1;
const GOAL_MEDIAN_MS = 5;
const GOAL_TELEGRAM_P99_MS = 200;

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// A. Time per hub update

const START = Date.UTC(2026, 10, 20, 4, 0); // 09:30 IST, MCX open
const all = makeQuotes(HISTORY_MINUTES + MEASURE_MINUTES, START, 42);
const cut = all.findIndex((q) => q.ts >= START + HISTORY_MINUTES * 60_000);
const history = all.slice(0, cut);
const measured = all.slice(cut);

// The spreads' level at the start and their standard deviation over the history.
const hub = new MarketHub(defaultDuties());
const seen = new Map<SpreadSymbol, number[]>(SPREAD_SYMBOLS.map((s) => [s, []]));
const unsubscribeHistory = hub.subscribe((update) => {
  for (const symbol of update.symbols) {
    const spread = update.calculations[symbol]?.spread;
    if (spread !== undefined && isSpreadSymbol(symbol)) seen.get(symbol)?.push(spread);
  }
});
for (const quote of history) hub.ingest(quote);
unsubscribeHistory();
const level = new Map<SpreadSymbol, { now: number; sd: number }>();
for (const symbol of SPREAD_SYMBOLS) {
  const values = seen.get(symbol) ?? [];
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
  const now = hub.snapshot().calculations[symbol]?.spread;
  if (now === undefined) throw new Error(`no ${symbol} spread after the history`);
  level.set(symbol, { now, sd });
}

// 1,000 users with alerts and a Telegram chat; 100 alerts each, symbols in turn, limits 1–5.
const database = createTestDatabase();
// The engine goes through the port; the 100,000 rows are seeded with raw SQL for speed.
const store = sqliteStore(database);
const { sqlite } = database;
const insertStarted = performance.now();
const random = seededRandom(7);
const created = Date.now();
for (let u = 0; u < USERS; u++) {
  const user = await store.users.create({
    username: `trader${u}`,
    passwordHash: "not-a-hash",
    alertsEnabled: true,
    createdAt: created,
  });
  await store.telegramLinks.save(user.id, String(100_000 + u), created);
}
const insertAlert = sqlite.prepare(
  `INSERT INTO alerts (user_id, commodity_type, threshold, sound_id, enabled, telegram_notify,
                       max_notifications, created_at, updated_at)
   VALUES (?, ?, ?, 'beep', 1, 1, ?, ?, ?)`,
);
const userIds = sqlite.prepare("SELECT id FROM users ORDER BY id").pluck().all() as number[];
sqlite.transaction(() => {
  for (let i = 0; i < ALERTS; i++) {
    const symbol = SPREAD_SYMBOLS[i % SPREAD_SYMBOLS.length] as SpreadSymbol;
    const { now, sd } = level.get(symbol) as { now: number; sd: number };
    const threshold = Math.round((now + gaussian(random) * sd * THRESHOLD_SD_FACTOR) * 100) / 100;
    const limit = 1 + Math.floor(random() * 5);
    insertAlert.run(userIds[Math.floor(i / 100)], symbol, threshold, limit, created, created);
  }
})();
const insertMs = performance.now() - insertStarted;

let wakes = 0;
// Legs are never stale here: the bench plays its quotes as fast as it can, and in a firing storm
// wall time runs far slower than quote time, so the wall-clock silence check would hold crossings
// that a live market would not. The check itself still runs on every update.
const engine = new AlertEngine(
  store,
  hub,
  () => {
    wakes++;
  },
  { legs: { silenceMs: Number.POSITIVE_INFINITY } },
);
const startStarted = performance.now();
await engine.start();
// As the composition root wires it on the leader (composition.ts).
hub.subscribe((update) => engine.onUpdate(update));
const startMs = performance.now() - startStarted;
const watchedAtStart = engine.watchedCount;
console.log(
  `engine: ${fmt(USERS)} users, ${fmt(ALERTS)} alerts inserted in ${fmt(insertMs)} ms; ` +
    `engine.start() loaded ${fmt(watchedAtStart)} watched alerts in ${fmt(startMs)} ms`,
);
console.log(
  `engine: thresholds ~ N(spread now, sd over ${HISTORY_MINUTES} min) per symbol: ` +
    SPREAD_SYMBOLS.map((s) => {
      const l = level.get(s) as { now: number; sd: number };
      return `${s} ${fmt(l.now, 2)}±${fmt(l.sd, 2)}`;
    }).join(", "),
);

// One timing per update, and how many outbox rows it wrote (read outside the timed part).
const maxOutboxId = sqlite.prepare("SELECT coalesce(max(id), 0) FROM outbox").pluck();
let outboxId = maxOutboxId.get() as number;
interface UpdateTiming {
  ms: number;
  firings: number;
  moved: number;
  fx: boolean;
}
const timings: UpdateTiming[] = [];
const runStarted = performance.now();
for (const quote of measured) {
  const t0 = performance.now();
  hub.ingest(quote);
  // The update's firings are written after ingest returns: the time until they are stored.
  await engine.idle();
  const ms = performance.now() - t0;
  const id = maxOutboxId.get() as number;
  timings.push({
    ms,
    firings: id - outboxId,
    moved: quote.source === "fx" ? 10 : quote.source === "spot" || quote.source === "index" ? 0 : 2,
    fx: quote.source === "fx",
  });
  outboxId = id;
}
const runSeconds = (performance.now() - runStarted) / 1000;

// The same quotes through a hub with no engine: what the engine adds.
const bare = new MarketHub(defaultDuties());
for (const quote of history) bare.ingest(quote);
const bareTimes: number[] = [];
for (const quote of measured) {
  const t0 = performance.now();
  bare.ingest(quote);
  bareTimes.push(performance.now() - t0);
}

// What an alert change costs the engine: refreshUser re-reads and re-sorts every index.
const refreshTimes: number[] = [];
for (let i = 0; i < 20; i++) {
  const t0 = performance.now();
  await engine.refreshUser(userIds[(i * 37) % USERS] as number);
  refreshTimes.push(performance.now() - t0);
}
await engine.stop();

const firings = timings.reduce((n, t) => n + t.firings, 0);
const disabled = sqlite.prepare("SELECT count(*) FROM alerts WHERE enabled = 0").pluck().get();
const historyRows = sqlite
  .prepare("SELECT state, count(*) AS n FROM alert_firings GROUP BY state ORDER BY state")
  .all() as { state: string; n: number }[];
const allUpdates = summarize(timings.map((t) => t.ms));
const alertUpdates = summarize(timings.filter((t) => t.moved > 0).map((t) => t.ms));
const quiet = summarize(timings.filter((t) => t.firings === 0).map((t) => t.ms));
const quietMoved = summarize(
  timings.filter((t) => t.firings === 0 && t.moved > 0).map((t) => t.ms),
);
const firing = timings.filter((t) => t.firings > 0);
const firingSummary = summarize(firing.map((t) => t.ms));
const perFiring = summarize(firing.map((t) => t.ms / t.firings));
const firingsPerUpdate = summarize(firing.map((t) => t.firings));
const fxUpdates = summarize(timings.filter((t) => t.fx).map((t) => t.ms));
const baseline = summarize(bareTimes);
const refresh = summarize(refreshTimes);

const line = (label: string, s: Summary) =>
  console.log(`engine: ${label.padEnd(34)} ${describe(s)}`);
console.log(
  `engine: ${fmt(measured.length)} updates (${MEASURE_MINUTES} min of quote time) in ` +
    `${fmt(runSeconds, 1)} s of wall time; ${fmt(firings)} firings in ${fmt(firing.length)} ` +
    `updates (${fmt((firing.length / measured.length) * 100, 1)} %), ${fmt(Number(disabled))} ` +
    `alerts reached their limit; ${fmt(engine.watchedCount)} still watched; sender woken ${fmt(wakes)}×`,
);
console.log(
  `engine: History rows ${historyRows.map((h) => `${h.state} ${fmt(h.n)}`).join(", ") || "none"}`,
);
line("every update", allUpdates);
line("updates moving ≥ 1 alert symbol", alertUpdates);
line("quiet updates (no firing)", quiet);
line("quiet updates moving a symbol", quietMoved);
line("fx updates (all ten symbols)", fxUpdates);
line("updates that fire", firingSummary);
console.log(
  `engine: firings per firing update: mean ${fmt(firingsPerUpdate.mean, 1)}, p50 ` +
    `${firingsPerUpdate.p50}, p99 ${firingsPerUpdate.p99}, max ${firingsPerUpdate.max}; ` +
    `time per firing p50 ${fmt(perFiring.p50, 3)} ms`,
);
line("same quotes, hub without engine", baseline);
line("refreshUser (after an alert change)", refresh);
console.log(
  `engine: median per update ${fmt(allUpdates.p50, 3)} ms; goal ≤ ${GOAL_MEDIAN_MS} ms: ` +
    `${allUpdates.p50 <= GOAL_MEDIAN_MS ? "met" : "NOT met"}`,
);
console.log(
  `RESULT ${JSON.stringify({
    bench: "alert-engine",
    alerts: ALERTS,
    updates: measured.length,
    quoteMinutes: MEASURE_MINUTES,
    firings,
    firingUpdates: firing.length,
    alertsDisabled: disabled,
    startMs,
    p50Ms: allUpdates.p50,
    p99Ms: allUpdates.p99,
    maxMs: allUpdates.max,
    quietP50Ms: quiet.p50,
    quietP99Ms: quiet.p99,
    fxP50Ms: fxUpdates.p50,
    fxP99Ms: fxUpdates.p99,
    firingP50Ms: firingSummary.p50,
    firingP99Ms: firingSummary.p99,
    firingMaxMs: firingSummary.max,
    firingsPerFiringUpdateMean: firingsPerUpdate.mean,
    msPerFiringP50: perFiring.p50,
    baselineP50Ms: baseline.p50,
    baselineP99Ms: baseline.p99,
    refreshUserP50Ms: refresh.p50,
  })}`,
);
database.cleanup();

// ---------------------------------------------------------------------------------------------
// B. Crossing tick → Telegram request received

const telegram = await new FakeTelegram().start();
const feed = manualFeed();
const server = await startTestServer({
  feed,
  env: { TELEGRAM_BOT_TOKEN: "123456:BENCH-TOKEN", TELEGRAM_API_ROOT: telegram.apiRoot },
});
try {
  const admin = new HttpClient(server.url);
  await admin.post("/api/auth/login", ADMIN);
  await admin.post("/api/auth/users", {
    username: "trader",
    password: "trader-pass-1",
    alerts_enabled: true,
  });
  const trader = new HttpClient(server.url);
  await trader.post("/api/auth/login", { username: "trader", password: "trader-pass-1" });
  const connected = await trader.post("/api/telegram/connect", { chatId: "4242" });
  if (connected.status !== 200) throw new Error(`telegram connect: ${connected.status}`);
  // 100 GC_BUY alerts (the per-user cap) at thresholds 1, 2, … 100, limit 5 each.
  const LEVELS = 100;
  const LIMIT = 5;
  for (let k = 1; k <= LEVELS; k++) {
    const r = await trader.post("/api/alerts", {
      commodityType: "GC_BUY",
      threshold: k,
      telegramNotify: true,
      telegramMaxNotifications: LIMIT,
    });
    if (r.status !== 200) throw new Error(`create alert: ${r.status} ${JSON.stringify(r.body)}`);
  }

  // GC_BUY = GOLD ask − parity(GC bid): with the parity fixed, the ask sets the spread exactly.
  let ts = Date.now();
  feed.push({ source: "fx", key: "USDINR", ts, price: 84 });
  feed.push({ source: "cme", key: "GC", ts, bid: 2000, ask: 2000.5 });
  feed.push({ source: "mcx", key: "GOLD", ts, bid: 57_000, ask: 57_300 });
  const parity = server.hub.snapshot().calculations.GC_BUY?.parity;
  if (parity === undefined) throw new Error("no GC_BUY parity");
  /** Puts GC_BUY at `spread`, one cooldown and a second later in quote time. */
  const pushSpread = (spread: number) => {
    ts += 31_000;
    const ask = parity + spread;
    feed.push({ source: "mcx", key: "GOLD", ts, bid: ask - 20, ask });
  };
  pushSpread(0.5); // first observation: records every alert's side, fires nothing

  // Four sweeps, 100 → 0.5 → 100.5 → …: each tick crosses exactly one threshold.
  const single: number[] = [];
  let expected = telegram.received.length;
  const path: number[] = [];
  for (let sweep = 0; sweep < LIMIT - 1; sweep++) {
    for (let j = 1; j <= LEVELS; j++) path.push(sweep % 2 === 0 ? j + 0.5 : LEVELS - j + 0.5);
  }
  for (const spread of path) {
    const t0 = performance.now();
    pushSpread(spread);
    expected++;
    await telegram.waitFor(expected);
    single.push(performance.now() - t0);
    // The sender marks the row sent after Telegram's answer: start the next tick from quiet.
    await server.services.sender?.idle();
    await sleep(1 + Math.random() * 4);
  }
  // Then one tick crossing all 100 thresholds at once: 100 messages, sent one after another.
  const burstStarted = performance.now();
  pushSpread(LEVELS + 0.5);
  await telegram.waitFor(expected + 1);
  const burstFirst = performance.now() - burstStarted;
  await telegram.waitFor(expected + LEVELS);
  const burstLast = performance.now() - burstStarted;
  await server.services.sender?.idle();

  const s = summarize(single);
  console.log(
    `telegram: crossing tick → request at the fake Bot API, one firing per tick: ${describe(s)}; ` +
      `goal p99 ≤ ${GOAL_TELEGRAM_P99_MS} ms: ${s.p99 <= GOAL_TELEGRAM_P99_MS ? "met" : "NOT met"}`,
  );
  console.log(
    `telegram: one tick firing ${LEVELS} alerts: first message after ${fmt(burstFirst, 1)} ms, ` +
      `last after ${fmt(burstLast, 1)} ms (then ${fmt((burstLast - burstFirst) / (LEVELS - 1), 2)} ms per message, sent in turn); ` +
      `fake server saw ${telegram.attempts} requests`,
  );
  console.log(
    `RESULT ${JSON.stringify({
      bench: "alert-telegram",
      firings: s.n,
      p50Ms: s.p50,
      p95Ms: s.p95,
      p99Ms: s.p99,
      maxMs: s.max,
      burstAlerts: LEVELS,
      burstFirstMs: burstFirst,
      burstLastMs: burstLast,
    })}`,
  );
} finally {
  await server.stop();
  await telegram.stop();
}
