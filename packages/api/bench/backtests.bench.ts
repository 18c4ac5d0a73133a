// Backtests (docs/backtest.md): one year of one-minute BUY and SELL candles in MCX hours
// (~220,000 minutes). core's backtestSpread alone, per metric; then the real server answering
// POST /api/backtests over loopback HTTP, the read of both sides included. Printed, never asserted.
import { mkdtempSync } from "node:fs";
import { Agent, request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import {
  type BacktestMetric,
  type BacktestMinute,
  backtestSpread,
  IST_OFFSET_MS,
  type Quote,
} from "@spreadwatch/core";
import { type StoredCandle, sqliteStore } from "@spreadwatch/db";
import { openDatabase } from "@spreadwatch/db/testing";
import { gaussian, seededRandom } from "../src/feeds/simulator/random.ts";
import { DATABASE_FILE } from "../src/server.ts";
import { HttpClient } from "../test/http-client.ts";
import { ADMIN, manualFeed, startTestServer } from "../test/server.ts";
import { describe, summarize } from "./stats.ts";

const DAY_MS = 86_400_000;
const CORE_GOAL_MS = 100;
const HTTP_GOAL_P95_MS = 500;
const CORE_RUNS = Number(process.env.BENCH_BACKTEST_RUNS ?? 30);
const HTTP_RUNS = Number(process.env.BENCH_BACKTEST_HTTP_RUNS ?? 40);

/** Weekday minutes 09:00–23:30 IST over the year ending today: ~222,000. */
function yearOfMcxMinutes(): BacktestMinute[] {
  const random = seededRandom(29);
  const end = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const minutes: BacktestMinute[] = [];
  let value = 0;
  const decay = Math.exp(-1 / 240);
  for (let day = end - 365 * DAY_MS; day < end; day += DAY_MS) {
    const weekday = new Date(day + IST_OFFSET_MS).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const open = day - IST_OFFSET_MS + 9 * 3_600_000;
    for (let m = 0; m < 870; m++) {
      value = value * decay + 150 * Math.sqrt(1 - decay * decay) * gaussian(random);
      const half = 2 + Math.abs(gaussian(random));
      minutes.push({ timestamp: open + m * 60_000, buy: value + half, sell: value - half });
    }
  }
  return minutes;
}

/** The 1-minute load average, for reading the wall times (the machine may be shared). */
const loadAverage = () => (loadavg()[0] as number).toFixed(1);

const minutes = yearOfMcxMinutes();
const from = (minutes[0] as BacktestMinute).timestamp;
const to = (minutes.at(-1) as BacktestMinute).timestamp + 60_000;
const RULES: Record<BacktestMetric, Record<string, number>> = {
  spread: { sellAbove: 200, exitShortAt: 0, buyBelow: -200, exitLongAt: 0 },
  z: { sellAbove: 2, exitShortAt: 0, buyBelow: -2, exitLongAt: 0 },
  percentile: { sellAbove: 95, exitShortAt: 50, buyBelow: 5, exitLongAt: 50 },
};

for (const metric of ["spread", "z", "percentile"] as const) {
  const times: number[] = [];
  const cpu: number[] = [];
  let trades = 0;
  for (let i = 0; i < 3 + CORE_RUNS; i++) {
    const t = performance.now();
    const used = process.cpuUsage();
    const result = backtestSpread(
      minutes,
      { metric, lots: 1, ...RULES[metric] },
      { units: 100, costsPerLotInr: 1800 },
    );
    const { user, system } = process.cpuUsage(used);
    if (i >= 3) {
      times.push(performance.now() - t);
      cpu.push((user + system) / 1000);
    }
    trades = result.summary.trades;
  }
  const s = summarize(times);
  const c = summarize(cpu);
  console.log(
    `backtestSpread ${metric.padEnd(10)} ${minutes.length.toLocaleString("en-US")} minutes, ${trades} trades: ` +
      `${describe(s)}; goal ≤ ${CORE_GOAL_MS} ms: ${s.p50 <= CORE_GOAL_MS ? "met" : "NOT met"} (p50)`,
  );
  console.log(`  CPU a run (all threads, GC included): ${describe(c)}; load ${loadAverage()}`);
  console.log(
    `RESULT ${JSON.stringify({ bench: "backtest-core", metric, minutes: minutes.length, ...s, cpu: c })}`,
  );
}

// The real server on a database holding both sides.
const dataDir = mkdtempSync(join(tmpdir(), "spreadwatch-bench-backtest-"));
const store = sqliteStore(openDatabase(join(dataDir, DATABASE_FILE)));
const rows: StoredCandle[] = [];
for (const m of minutes) {
  for (const [symbol, close] of [
    ["GC_BUY", m.buy as number],
    ["GC_SELL", m.sell as number],
  ] as const)
    rows.push({
      symbol,
      timeframe: "1m",
      timestamp: m.timestamp,
      open: close,
      high: close,
      low: close,
      close,
    });
}
await store.candles.save(rows);
await store.close();

const feed = manualFeed();
const server = await startTestServer({ feed, dataDir, env: { HISTORY_RETENTION_DAYS: "400" } });
try {
  const ts = Date.now();
  const quotes: Quote[] = [
    { source: "fx", key: "USDINR", price: 84, ts },
    { source: "cme", key: "GC", bid: 2650, ask: 2651, ts },
    { source: "mcx", key: "GOLD", bid: 76_000, ask: 76_010, ts },
  ];
  for (const quote of quotes) feed.push(quote);
  const client = new HttpClient(server.url);
  if ((await client.post("/api/auth/login", ADMIN)).status !== 200) throw new Error("login");
  const cookie = client.cookieHeader;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const post = (body: unknown) =>
    new Promise<{ status: number; trades: number }>((resolve, reject) => {
      const text = JSON.stringify(body);
      const req = request(
        `${server.url}/api/backtests`,
        {
          method: "POST",
          agent,
          headers: { cookie, "content-type": "application/json", origin: server.url },
        },
        (res) => {
          let out = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            out += chunk;
          });
          res.on("end", () => {
            if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}: ${out}`));
            resolve({ status: 200, trades: JSON.parse(out).summary.trades });
          });
        },
      );
      req.on("error", reject);
      req.end(text);
    });
  for (const metric of ["spread", "z"] as const) {
    const times: number[] = [];
    const cpu: number[] = [];
    let trades = 0;
    for (let i = 0; i < 3 + HTTP_RUNS; i++) {
      const t = performance.now();
      const used = process.cpuUsage();
      const answer = await post({ symbol: "GC", from, to, metric, lots: 1, ...RULES[metric] });
      const { user, system } = process.cpuUsage(used);
      if (i >= 3) {
        times.push(performance.now() - t);
        cpu.push((user + system) / 1000);
      }
      trades = answer.trades;
    }
    const s = summarize(times);
    const c = summarize(cpu);
    console.log(
      `POST /api/backtests ${metric.padEnd(7)} one year (${minutes.length.toLocaleString("en-US")} minutes a side), ${trades} trades: ` +
        `${describe(s)}; goal p95 ≤ ${HTTP_GOAL_P95_MS} ms: ${s.p95 <= HTTP_GOAL_P95_MS ? "met" : "NOT met"}`,
    );
    // The server runs in this process: its CPU time a request (and the client's, a JSON parse),
    // which a loaded machine inflates far less than the wall time.
    console.log(
      `  CPU a request (this process, all threads): ${describe(c)}; load ${loadAverage()}`,
    );
    console.log(`RESULT ${JSON.stringify({ bench: "backtest-http", metric, ...s, cpu: c })}`);
  }
} finally {
  await server.stop();
}
