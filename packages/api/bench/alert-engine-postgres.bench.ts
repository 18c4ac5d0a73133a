// BENCHMARKS.md §12: the alert engine with 100,000 Telegram alerts on PostgreSQL, SQLite beside it,
// in one run. The real AlertEngine on a real MarketHub and a real store (the adapters the server
// uses); per store:
//  1. load: engine.start() reading every watched alert (STARTS times, a new engine each);
//  2. evaluation with no crossing: the simulator's quote mix, every alert's threshold placed
//     outside the range the spreads visit, time from hub.ingest to engine.idle() per quote;
//  3. a crossing storm: GC_BUY's 10,000 thresholds stacked above its range; each GOLD quote
//     lifts the spread across the next N of them (1, 10, 100, 1,000, then the rest), then one
//     quote drops it across all 10,000. Time per firing quote = evaluation + the one transaction
//     that writes its firings and outbox rows (what engine.idle() waits for).
// Stores: SQLite (WAL, synchronous=NORMAL, the product's file), PostgreSQL with production
// durability (fsync and synchronous_commit on, bench/durable-postgres.ts), and the same
// PostgreSQL with synchronous_commit=off for that database — a crash may lose the last commits but
// never corrupts, roughly SQLite NORMAL's bargain. Printed, never asserted.
//   BENCH_ALERT_PG_STORES=sqlite,postgres,postgres-async  BENCH_ALERT_PG_MINUTES=5
//   BENCH_ALERT_PG_HISTORY=100000 (History rows already stored)

import { loadavg } from "node:os";
import {
  defaultDuties,
  isSpreadSymbol,
  type Quote,
  SPREAD_SYMBOLS,
  type SpreadSymbol,
} from "@spreadwatch/core";
import { openStore, type Store, sqliteStore } from "@spreadwatch/db";
import { createTestDatabase } from "@spreadwatch/db/testing";
import { createDatabase } from "@spreadwatch/db/testing/postgres";
import { AlertEngine } from "../src/alerts/engine.ts";
import { seededRandom } from "../src/feeds/simulator/random.ts";
import { MarketHub } from "../src/market/hub.ts";
import { type BenchPostgres, startDurablePostgres } from "./durable-postgres.ts";
import { pgClient } from "./pg-client.ts";
import { makeQuotes } from "./quote-mix.ts";
import { describe, summarize } from "./stats.ts";

const ALERTS = 100_000;
/** 100 alerts each: the per-user cap, so the fewest users that can own 100,000 alerts. */
const USERS = 1_000;
const PER_SYMBOL = ALERTS / SPREAD_SYMBOLS.length;
/** High enough that no alert is disabled during the storm: every batch writes N firings. */
const LIMIT = 5;
const STORM_SYMBOL: SpreadSymbol = "GC_BUY";
/** GC_BUY thresholds this far apart: the storm's quotes land between two of them. */
const STEP = 0.05;
/** Firing batches going up (size × times); the rest of the 10,000 go in one; then all 10,000 down. */
const UP_BATCHES: Array<[size: number, times: number]> = [
  [1, 10],
  [10, 10],
  [100, 5],
  [1_000, 3],
];
const STARTS = 3;
const HISTORY_MINUTES = 2;
const QUIET_MINUTES = Number(process.env.BENCH_ALERT_PG_MINUTES ?? 5);
const STORES = (process.env.BENCH_ALERT_PG_STORES ?? "sqlite,postgres,postgres-async").split(",");
/**
 * History rows of earlier days, as a desk's database holds them (analysed with the rest). With
 * none, PostgreSQL checks each new outbox row's firing_id against a History table it analysed
 * empty, with a plan cached while it was: a scan of the whole table per row (see BENCHMARKS §12).
 */
const PAST_FIRINGS = Number(process.env.BENCH_ALERT_PG_HISTORY ?? 100_000);
const START = Date.UTC(2026, 10, 20, 4, 0); // 09:30 IST, MCX open
const COOLDOWN_PASSED_MS = 31_000;

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

// ---------------------------------------------------------------------------------------------
// The quotes, and where every spread goes during them

const all = makeQuotes(HISTORY_MINUTES + QUIET_MINUTES, START, 42);
const cut = all.findIndex((q) => q.ts >= START + HISTORY_MINUTES * 60_000);
const history = all.slice(0, cut);
const quiet = all.slice(cut);

/** Each spread's lowest and highest value over every quote the bench feeds before the storm. */
function spreadRanges(): Map<SpreadSymbol, { lo: number; hi: number }> {
  const hub = new MarketHub(defaultDuties());
  const ranges = new Map<SpreadSymbol, { lo: number; hi: number }>();
  hub.subscribe((update) => {
    for (const symbol of update.symbols) {
      if (!isSpreadSymbol(symbol)) continue;
      const spread = update.calculations[symbol]?.spread;
      if (spread === undefined) continue;
      const r = ranges.get(symbol) ?? { lo: spread, hi: spread };
      ranges.set(symbol, { lo: Math.min(r.lo, spread), hi: Math.max(r.hi, spread) });
    }
  });
  for (const quote of all) hub.ingest(quote);
  return ranges;
}
const ranges = spreadRanges();

/** Alert i's symbol and threshold: outside every range; GC_BUY's stacked above its range. */
interface PlannedAlert {
  userIndex: number;
  symbol: SpreadSymbol;
  threshold: number;
}
function planAlerts(): PlannedAlert[] {
  const random = seededRandom(7);
  const planned: PlannedAlert[] = [];
  for (let i = 0; i < ALERTS; i++) {
    const symbol = SPREAD_SYMBOLS[i % SPREAD_SYMBOLS.length] as SpreadSymbol;
    const k = Math.floor(i / SPREAD_SYMBOLS.length); // 0 … PER_SYMBOL − 1 within the symbol
    const { lo, hi } = ranges.get(symbol) as { lo: number; hi: number };
    const width = Math.max(hi - lo, 1);
    let threshold: number;
    if (symbol === STORM_SYMBOL) threshold = stormThreshold(k);
    // GC_SELL moves with GOLD too: all below its range, so the storm's rise never reaches them.
    else if (symbol === "GC_SELL" || random() < 0.5) threshold = lo - width * (0.5 + random());
    else threshold = hi + width * (0.5 + random());
    planned.push({ userIndex: Math.floor(i / 100), symbol, threshold });
  }
  return planned;
}
/** The k-th (from 0) GC_BUY threshold above the range the quiet quotes visit. */
function stormThreshold(k: number): number {
  const { lo, hi } = ranges.get(STORM_SYMBOL) as { lo: number; hi: number };
  return Math.ceil(hi + Math.max(hi - lo, 1)) + (k + 1) * STEP;
}
const planned = planAlerts();

// ---------------------------------------------------------------------------------------------
// The stores

interface BenchStore {
  label: string;
  store: Store;
  /** USERS users with alerts on and a Telegram chat, and the planned alerts: raw SQL, for speed. */
  seed(): Promise<void>;
  /** Telegram outbox rows so far: the firings written. */
  outboxRows(): Promise<number>;
  close(): Promise<void>;
}

/** SQLite writes a user in microseconds: through the port, as the existing engine bench does. */
async function seedUsersThroughStore(store: Store, now: number): Promise<number[]> {
  const userIds: number[] = [];
  for (let u = 0; u < USERS; u++) {
    const user = await store.users.create({
      username: `trader${u}`,
      passwordHash: "not-a-hash",
      alertsEnabled: true,
      createdAt: now,
    });
    await store.telegramLinks.save(user.id, String(100_000 + u), now);
    userIds.push(user.id);
  }
  return userIds;
}

function sqliteBench(): BenchStore {
  const database = createTestDatabase();
  const store = sqliteStore(database);
  const { sqlite } = database;
  const insert = sqlite.prepare(
    `INSERT INTO alerts (user_id, commodity_type, threshold, sound_id, enabled, telegram_notify,
                         max_notifications, created_at, updated_at)
     VALUES (?, ?, ?, 'beep', 1, 1, ?, ?, ?)`,
  );
  const count = sqlite.prepare("SELECT count(*) FROM outbox").pluck();
  const pastFiring = sqlite.prepare(
    `INSERT INTO alert_firings (user_id, alert_id, symbol, metric, value, threshold, direction,
                                state, source, fired_at, created_at)
     VALUES (?, ?, ?, 'spread', 0, ?, 'above', 'fired', 'server', 0, 0)`,
  );
  return {
    label: "SQLite (WAL, synchronous=NORMAL)",
    store,
    async seed() {
      const now = Date.now();
      const userIds = await seedUsersThroughStore(store, now);
      sqlite.transaction(() => {
        for (const a of planned)
          insert.run(userIds[a.userIndex], a.symbol, a.threshold, LIMIT, now, now);
        for (let i = 0; i < PAST_FIRINGS; i++) {
          const a = planned[i % planned.length] as PlannedAlert;
          pastFiring.run(userIds[a.userIndex], (i % planned.length) + 1, a.symbol, a.threshold);
        }
      })();
      sqlite.exec("ANALYZE");
    },
    outboxRows: async () => count.get() as number,
    async close() {
      await store.close();
      database.cleanup();
    },
  };
}

async function postgresBench(server: BenchPostgres, synchronousCommit: boolean) {
  const database = await createDatabase(server.url);
  const admin = await pgClient(database.url);
  if (!synchronousCommit) {
    const name = new URL(database.url).pathname.slice(1);
    await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  }
  // Opened after the ALTER, so every pooled connection takes the database's setting.
  const store = await openStore({ kind: "postgres", url: database.url });
  const check = await pgClient(database.url);
  const { rows } = await check.query<{ synchronous_commit: string }>("SHOW synchronous_commit");
  await check.end();
  const label =
    `PostgreSQL ${server.settings.server_version?.split(" ")[0]} (fsync ${server.settings.fsync}, ` +
    `synchronous_commit ${rows[0]?.synchronous_commit})`;
  const bench: BenchStore = {
    label,
    store,
    async seed() {
      const now = Date.now();
      // One statement per table (array parameters for the alerts): no round trip per row.
      await admin.query(
        `INSERT INTO users (username, username_key, password_hash, alerts_enabled, created_at)
         SELECT 'trader' || g, 'trader' || g, 'not-a-hash', true, $2
           FROM generate_series(0, $1::int - 1) AS g ORDER BY g`,
        [USERS, now],
      );
      await admin.query(
        `INSERT INTO telegram_links (user_id, chat_id, connected_at)
         SELECT id, (100000 + id)::text, $1 FROM users`,
        [now],
      );
      const users = await admin.query<{ id: number }>("SELECT id FROM users ORDER BY id");
      const userIds = users.rows.map((row) => row.id);
      await admin.query(
        `INSERT INTO alerts (user_id, commodity_type, threshold, sound_id, enabled,
                             telegram_notify, max_notifications, created_at, updated_at)
         SELECT u, s, t, 'beep', true, true, $4, $5, $5
           FROM unnest($1::int[], $2::text[], $3::float8[]) AS v(u, s, t)`,
        [
          planned.map((a) => userIds[a.userIndex]),
          planned.map((a) => a.symbol),
          planned.map((a) => a.threshold),
          LIMIT,
          now,
        ],
      );
      await admin.query(
        `INSERT INTO alert_firings (user_id, alert_id, symbol, metric, value, threshold, direction,
                                    state, source, fired_at, created_at)
         SELECT a.user_id, a.id, a.commodity_type, 'spread', 0, a.threshold, 'above', 'fired',
                'server', 0, 0
           FROM generate_series(0, $1::int - 1) AS g
           JOIN alerts a ON a.id = (g % $2::int) + 1`,
        [PAST_FIRINGS, planned.length],
      );
      await admin.query("ANALYZE");
    },
    async outboxRows() {
      const { rows } = await admin.query<{ n: string }>("SELECT count(*) AS n FROM outbox");
      return Number(rows[0]?.n);
    },
    async close() {
      await store.close();
      await admin.end();
      await database.drop();
    },
  };
  return bench;
}

// ---------------------------------------------------------------------------------------------
// The measurements

/** Times one quote: ingest, the engine's evaluation, and the write it queued (if it fired). */
async function timeQuote(hub: MarketHub, engine: AlertEngine, quote: Quote): Promise<number> {
  const t0 = performance.now();
  hub.ingest(quote);
  await engine.idle();
  return performance.now() - t0;
}

interface Batch {
  firings: number;
  ms: number;
}

async function measure(bench: BenchStore) {
  const { store } = bench;
  const seedStarted = performance.now();
  await bench.seed();
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  const hub = new MarketHub(defaultDuties());
  for (const quote of history) hub.ingest(quote);
  const wake = () => {};

  // 1. Load: a fresh engine reading every watched alert, STARTS times.
  const startMs: number[] = [];
  let engine: AlertEngine | undefined;
  let stopListening: (() => void) | undefined;
  for (let i = 0; i < STARTS; i++) {
    await engine?.stop();
    stopListening?.();
    engine = new AlertEngine(store, hub, wake);
    const t0 = performance.now();
    await engine.start();
    startMs.push(performance.now() - t0);
    // As the composition root wires it on the leader (composition.ts).
    const current = engine;
    stopListening = hub.subscribe((update) => current.onUpdate(update));
  }
  if (!engine) throw new Error("no engine");
  if (engine.watchedCount !== ALERTS)
    throw new Error(`engine watches ${engine.watchedCount} alerts, not ${ALERTS}`);

  // 2. Evaluation with no crossing.
  const quietMs: number[] = [];
  for (const quote of quiet) quietMs.push(await timeQuote(hub, engine, quote));
  const quietFirings = await bench.outboxRows();

  // 3. The storm: GOLD alone moves GC_BUY (and GC_SELL, whose thresholds are all below).
  const parity = hub.snapshot().calculations[STORM_SYMBOL]?.parity;
  if (parity === undefined) throw new Error(`no ${STORM_SYMBOL} parity`);
  const startSpread = hub.snapshot().calculations[STORM_SYMBOL]?.spread as number;
  let ts = (quiet.at(-1)?.ts ?? START) + COOLDOWN_PASSED_MS;
  const gold = (spread: number): Quote => {
    ts += COOLDOWN_PASSED_MS;
    const ask = parity + spread;
    return { source: "mcx", key: "GOLD", ts, bid: ask - 20, ask };
  };
  const sizes: number[] = [];
  for (const [size, times] of UP_BATCHES) for (let i = 0; i < times; i++) sizes.push(size);
  sizes.push(PER_SYMBOL - sizes.reduce((a, b) => a + b, 0));
  const batches: Batch[] = [];
  let crossed = 0;
  let rows = await bench.outboxRows();
  const stormQuote = async (spread: number) => {
    const ms = await timeQuote(hub, engine, gold(spread));
    const after = await bench.outboxRows();
    batches.push({ firings: after - rows, ms });
    rows = after;
  };
  for (const size of sizes) {
    crossed += size;
    // Just above the crossed-th threshold, below the next.
    await stormQuote(stormThreshold(crossed - 1) + STEP / 2);
  }
  await stormQuote(startSpread); // back down across all 10,000
  await engine.stop();
  return { seedSeconds, startMs, quietMs, quietFirings, batches };
}

// ---------------------------------------------------------------------------------------------

console.log(
  `alert-pg: ${fmt(ALERTS)} alerts (${fmt(PER_SYMBOL)} per symbol, ${fmt(USERS)} users with ` +
    `Telegram), thresholds outside each spread's range over ${HISTORY_MINUTES + QUIET_MINUTES} ` +
    `min of simulated quotes; ${fmt(quiet.length)} quiet quotes; ${STORM_SYMBOL}'s stacked ${STEP} apart`,
);
const bare = new MarketHub(defaultDuties());
for (const quote of history) bare.ingest(quote);
const bareMs = quiet.map((quote) => {
  const t0 = performance.now();
  bare.ingest(quote);
  return performance.now() - t0;
});
console.log(`alert-pg: same quotes, hub without engine: ${describe(summarize(bareMs))}`);

let postgres: BenchPostgres | undefined;
try {
  for (const kind of STORES) {
    if (kind !== "sqlite" && !postgres) postgres = await startDurablePostgres();
    const bench =
      kind === "sqlite"
        ? sqliteBench()
        : await postgresBench(postgres as BenchPostgres, kind === "postgres");
    try {
      const r = await measure(bench);
      const quietSummary = summarize(r.quietMs);
      console.log(`\nalert-pg: ${bench.label}; load average ${loadavg()[0]?.toFixed(2)}`);
      console.log(`alert-pg:   seeded in ${fmt(r.seedSeconds, 1)} s`);
      console.log(
        `alert-pg:   engine.start() with ${fmt(ALERTS)} alerts: ` +
          `${r.startMs.map((ms) => `${fmt(ms)} ms`).join(", ")}`,
      );
      console.log(
        `alert-pg:   per quote, no crossing: ${describe(quietSummary)}; firings ${r.quietFirings}`,
      );
      const bySize = new Map<number, number[]>();
      for (const b of r.batches) bySize.set(b.firings, [...(bySize.get(b.firings) ?? []), b.ms]);
      const storm = [...bySize].map(([firings, times]) => {
        const s = summarize(times);
        return { firings, quotes: s.n, medianMs: s.p50, maxMs: s.max };
      });
      for (const s of storm)
        console.log(
          `alert-pg:   quote firing ${fmt(s.firings).padStart(6)}: median ${fmt(s.medianMs, 2)} ms, ` +
            `max ${fmt(s.maxMs, 2)} ms over ${s.quotes} quote(s); ` +
            `${fmt((s.medianMs / Math.max(s.firings, 1)) * 1000, 1)} µs per firing`,
        );
      console.log(
        `RESULT ${JSON.stringify({
          bench: "alert-engine-store",
          store: kind,
          label: bench.label,
          alerts: ALERTS,
          startMs: r.startMs,
          quietQuotes: quietSummary.n,
          quietP50Ms: quietSummary.p50,
          quietP99Ms: quietSummary.p99,
          quietMaxMs: quietSummary.max,
          quietFirings: r.quietFirings,
          storm,
        })}`,
      );
    } finally {
      await bench.close();
    }
  }
} finally {
  postgres?.stop();
}
