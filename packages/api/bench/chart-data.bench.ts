// Chart data (BENCHMARKS.md §6): one year of 1-minute GC_BUY candles (525,600 rows) plus the
// coarser timeframes core builds from them, stored with store.candles.save in the server's own
// database file; then the real server answers chart.candles for each timeframe:
//  - in process, around the tRPC caller (session check, query, forming candle), as the REST
//    adapter calls it, and the database query alone for the split;
//  - end to end, GET /api/chart-data/GC_BUY?timeframe=… over loopback HTTP (keep-alive, signed in).
// Also the database bytes per symbol-year. Printed, never asserted.
import { mkdtempSync, statSync } from "node:fs";
import { Agent, get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  aggregateCandles,
  type Candle,
  MAX_CHART_CANDLES,
  TIMEFRAMES,
  type Timeframe,
} from "@spreadwatch/core";
import { type StoredCandle, sqliteStore } from "@spreadwatch/db";
import { openDatabase } from "@spreadwatch/db/testing";
import { createContext } from "../src/context.ts";
import { gaussian, seededRandom } from "../src/feeds/simulator/random.ts";
import { createCaller } from "../src/router.ts";
import { DATABASE_FILE } from "../src/server.ts";
import { HttpClient } from "../test/http-client.ts";
import { ADMIN, manualFeed, startTestServer } from "../test/server.ts";
import { describe, summarize } from "./stats.ts";

const SYMBOL = "GC_BUY";
const MINUTES = 365 * 24 * 60; // 525,600
const WARMUP = 20;
const RUNS = Number(process.env.BENCH_CHART_RUNS ?? 200);
const GOAL_P95_MS = 20;

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mb = (bytes: number) => `${fmt(bytes / 1e6, 1)} MB`;

/**
 * A year of minutes ending with the last whole minute: GC_BUY-like spread (mean-reverting around
 * 0 with an sd of ~120 INR, a couple of minutes' memory), open = previous close, wicks beyond.
 */
function yearOfMinutes(): Candle[] {
  const random = seededRandom(5);
  const end = Math.floor(Date.now() / 60_000) * 60_000;
  const decay = Math.exp(-60 / 120);
  const candles: Candle[] = [];
  let value = 0;
  for (let i = 0; i < MINUTES; i++) {
    const open = value;
    value = value * decay + 120 * Math.sqrt(1 - decay * decay) * gaussian(random);
    candles.push({
      timestamp: end - (MINUTES - i) * 60_000,
      open,
      high: Math.max(open, value) + Math.abs(gaussian(random)) * 8,
      low: Math.min(open, value) - Math.abs(gaussian(random)) * 8,
      close: value,
    });
  }
  return candles;
}

// ---------------------------------------------------------------------------------------------
// Fill the server's database file before the server opens it.

const dataDir = mkdtempSync(join(tmpdir(), "spreadwatch-bench-chart-"));
const file = join(dataDir, DATABASE_FILE);
// Raw pragmas measure the file; the rows themselves go in through the port, as the server's do.
const handle = openDatabase(file);
const store = sqliteStore(handle);
/** Bytes the database's pages take (page_count × page_size), WAL content included. */
const pageBytes = () =>
  (handle.sqlite.pragma("page_count", { simple: true }) as number) *
  (handle.sqlite.pragma("page_size", { simple: true }) as number);
const checkpointedFileBytes = () => {
  handle.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  return statSync(file).size;
};
const empty = { pages: pageBytes(), file: checkpointedFileBytes() };

const minutes = yearOfMinutes();
const rows = (timeframe: Timeframe, candles: readonly Candle[]): StoredCandle[] =>
  candles.map((c) => ({ symbol: SYMBOL, timeframe, ...c }));
let t0 = performance.now();
await store.candles.save(rows("1m", minutes));
const save1mMs = performance.now() - t0;
const after1m = { pages: pageBytes(), file: checkpointedFileBytes() };

t0 = performance.now();
const coarser = TIMEFRAMES.filter((tf) => tf !== "1m").map((tf) => ({
  timeframe: tf,
  candles: aggregateCandles(minutes, tf),
}));
const aggregateMs = performance.now() - t0;
t0 = performance.now();
await store.candles.save(coarser.flatMap(({ timeframe, candles }) => rows(timeframe, candles)));
const saveCoarserMs = performance.now() - t0;
const afterAll = { pages: pageBytes(), file: checkpointedFileBytes() };
const coarserRows = coarser.reduce((n, c) => n + c.candles.length, 0);
await store.close();

const bytes1m = after1m.pages - empty.pages;
const bytesAll = afterAll.pages - empty.pages;
console.log(
  `chart-data: ${fmt(MINUTES)} one-minute candles saved in ${fmt(save1mMs)} ms; coarser ` +
    `timeframes (${coarser.map((c) => `${c.timeframe} ${fmt(c.candles.length)}`).join(", ")}) ` +
    `aggregated in ${fmt(aggregateMs)} ms, saved in ${fmt(saveCoarserMs)} ms`,
);
console.log(
  `chart-data: database bytes per symbol-year (page_count × page_size, empty ${mb(empty.pages)}): ` +
    `1m alone ${mb(bytes1m)} (${fmt(bytes1m / MINUTES, 1)} B/row), with the coarser ` +
    `timeframes ${mb(bytesAll)} (${fmt(bytesAll / (MINUTES + coarserRows), 1)} B/row); ` +
    `file after checkpoint ${mb(afterAll.file)}`,
);
console.log(
  `RESULT ${JSON.stringify({
    bench: "chart-db",
    rows1m: MINUTES,
    rowsCoarser: coarserRows,
    emptyBytes: empty.pages,
    bytes1m,
    bytesAll,
    fileBytes: afterAll.file,
  })}`,
);

// ---------------------------------------------------------------------------------------------
// The real server on that directory.

const server = await startTestServer({ feed: manualFeed(), dataDir });
try {
  const client = new HttpClient(server.url);
  const login = await client.post("/api/auth/login", ADMIN);
  if (login.status !== 200) throw new Error(`login: ${login.status}`);
  const cookie = client.cookieHeader;

  /** A request as the REST adapter gets it, carrying the signed-in cookie. */
  const callerFor = () =>
    createCaller(
      createContext(server.services, {
        headers: new Headers({ cookie, host: "127.0.0.1" }),
        resHeaders: new Headers(),
        address: "127.0.0.1",
      }),
    );

  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const fetchChart = (timeframe: Timeframe) =>
    new Promise<number>((resolve, reject) => {
      get(
        `${server.url}/api/chart-data/${SYMBOL}?timeframe=${timeframe}&t=${Date.now()}`,
        { agent, headers: { cookie } },
        (res) => {
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            size += chunk.length;
          });
          res.on("end", () =>
            res.statusCode === 200 ? resolve(size) : reject(new Error(`HTTP ${res.statusCode}`)),
          );
        },
      ).on("error", reject);
    });

  for (const timeframe of TIMEFRAMES) {
    const expected = Math.min(
      MAX_CHART_CANDLES,
      timeframe === "1m"
        ? MINUTES
        : (coarser.find((c) => c.timeframe === timeframe)?.candles.length ?? 0),
    );
    const inProcess: number[] = [];
    const query: number[] = [];
    const http: number[] = [];
    let candles = 0;
    let responseBytes = 0;
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const record = i >= WARMUP;
      let t = performance.now();
      const { data } = await callerFor().chart.candles({ commodity: SYMBOL, timeframe });
      if (record) inProcess.push(performance.now() - t);
      candles = data.length;
      t = performance.now();
      const recent = { symbol: SYMBOL, timeframe, limit: MAX_CHART_CANDLES };
      await server.services.store.candles.recent(recent);
      if (record) query.push(performance.now() - t);
      t = performance.now();
      responseBytes = await fetchChart(timeframe);
      if (record) http.push(performance.now() - t);
    }
    if (candles !== expected)
      throw new Error(`${timeframe}: ${candles} candles, ${expected} expected`);
    const a = summarize(inProcess);
    const q = summarize(query);
    const h = summarize(http);
    console.log(
      `chart-data ${timeframe.padEnd(3)} ${fmt(candles).padStart(5)} candles, ${fmt(responseBytes / 1000, 1)} kB: ` +
        `chart.candles in process ${describe(a)}; query alone p50 ${fmt(q.p50, 2)} ms; ` +
        `HTTP ${describe(h)}; goal p95 ≤ ${GOAL_P95_MS} ms: ${a.p95 <= GOAL_P95_MS ? "met" : "NOT met"}`,
    );
    console.log(
      `RESULT ${JSON.stringify({
        bench: "chart-data",
        timeframe,
        candles,
        responseBytes,
        p50Ms: a.p50,
        p95Ms: a.p95,
        p99Ms: a.p99,
        queryP50Ms: q.p50,
        queryP95Ms: q.p95,
        httpP50Ms: h.p50,
        httpP95Ms: h.p95,
        httpP99Ms: h.p99,
      })}`,
    );
  }
  agent.destroy();
} finally {
  await server.stop();
}
