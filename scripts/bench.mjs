// `pnpm bench`: the figures BENCHMARKS.md records, printed, never asserted.
//   1. hub + core throughput (quotes/s incl. recalculation), fifteen and 300 instruments in use
//   1b. 1,000 spread definitions over 200 instruments: time per quote, hub throughput
//       (BENCHMARKS.md §16)
//   1c. position alerts: time per quote with 10,000 open positions across 1,000 users on the
//       built-in spreads and 100 definitions (BENCHMARKS.md §17)
//   1d. live orders: fill event → hedge order sent over 1,000 campaigns, fake Kite on loopback;
//       200 campaigns with faults in-process, and 200 against the production server killed with
//       SIGKILL at random moments (doubled orders and unnoticed naked legs, goal 0)
//   2. alert engine: time per hub update with 100,000 alerts; crossing tick → Telegram request
//   2b. alert engine with 100,000 alerts on SQLite and on PostgreSQL (BENCHMARKS.md §12): load, quiet
//       quotes, a crossing storm
//   3. chart data: chart.candles per timeframe over a year of 1-minute candles; DB bytes/symbol-year
//   3b. backtests: backtestSpread over ~220,000 minutes, POST /api/backtests p95 (docs/backtest.md)
//   3c. rolling statistics of 1,000 user spreads: memory and accuracy against the exact
//       structure (BENCHMARKS.md §15)
//   4. quote → SSE client latency with 1, 100, 1,000 subscribers, and server RSS
//   4a. quote → stream client on a non-leader instance (through Redis) beside the single
//       process, three bundled servers in one run (BENCHMARKS.md §11)
//   4b. 50 stream clients that never read, 5 minutes: server RSS and kernel socket memory
//   4c. the change stream: bytes per client-hour with the default instruments in use and with
//       every shipped one (BENCHMARKS.md §14); 100 / 1,000 / 10,000 clients against a bare
//       node:http floor writing to every drained socket, three runs (BENCHMARKS.md §10), under
//       `ulimit -n 20000` for the sockets
//   4d. the change stream with 20 spread definitions in use, private and shared (BENCHMARKS.md §16)
//   5. built web JS size, gzip: the initial chunk(s) and the lazy ones (the chart)
//   6. chart render in Chromium, 1,500 and 100,000 candles (needs the web build of step 5)
//   6a. the dashboard's stream in Chromium with every shipped instrument in use: bytes per
//       client-hour at 1400 × 900 and 390 × 844 beside a client asking for everything (§30)
//   6b. a 400-cell backtest sweep over 90 days in the browser's Web Worker: time and the longest
//       main-thread task meanwhile (docs/backtest.md, "Sweeps")
//   7. a first start of the production build with the simulator on an empty DATA_DIR: peak RSS,
//      seconds until it listens, then idle RSS and idle CPU % (docs/operations.md, "The first
//      start"); alone: `pnpm --filter @spreadwatch/api exec tsx bench/first-start.bench.ts`
//   7b. a first start with FEED=composite, a fake Kite (3 historical requests a second enforced)
//       and a fake Yahoo on loopback: seconds from the admin's Kite login until every default
//       spread has statistics over 20 days of fetched minutes (docs/history.md); alone:
//       `pnpm --filter @spreadwatch/api exec tsx bench/provider-history.bench.ts`
// Each runs in its own process so one cannot warm up or slow down another.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const results = [];
let failures = 0;

/** Runs a command, passing its output through except `RESULT {json}` lines, which it collects. */
function run(command, args) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    let pending = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (line.startsWith("RESULT ")) results.push(JSON.parse(line.slice(7)));
        else console.log(line);
      }
    });
    child.on("close", (code) => {
      if (pending) console.log(pending);
      if (code !== 0) {
        failures++;
        console.error(`bench: ${command} ${args.join(" ")} exited with ${code}`);
      }
      done(code);
    });
  });
}

const tsx = (file) => run("pnpm", ["--filter", "@spreadwatch/api", "exec", "tsx", file]);

/**
 * JS size, gzip, split into what index.html loads up front (the dashboard, login, …) and the
 * chunks loaded on demand (the Advanced Spread Chart with uPlot).
 */
function webSize() {
  const dist = join(root, "packages/web/dist");
  const html = readFileSync(join(dist, "index.html"), "utf8");
  const initial = new Set(
    [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]),
  );
  const kB = (n) => (n / 1000).toFixed(1);
  const sum = { initial: { raw: 0, gzip: 0 }, lazy: { raw: 0, gzip: 0 } };
  const chunks = [];
  for (const name of readdirSync(join(dist, "assets")).filter((n) => n.endsWith(".js"))) {
    const bytes = readFileSync(join(dist, "assets", name));
    const gzip = gzipSync(bytes).length; // zlib's default level 6, what most servers send
    const kind = initial.has(name) ? "initial" : "lazy";
    sum[kind].raw += bytes.length;
    sum[kind].gzip += gzip;
    chunks.push({ name, kind, raw: bytes.length, gzip });
    console.log(`web: ${kind.padEnd(7)} ${name}: ${kB(bytes.length)} kB, ${kB(gzip)} kB gzip`);
  }
  const total = sum.initial.gzip + sum.lazy.gzip;
  console.log(
    `web: initial JS ${kB(sum.initial.raw)} kB, ${kB(sum.initial.gzip)} kB gzip (goal ≤ 150 kB: ` +
      `${sum.initial.gzip <= 150_000 ? "met" : "NOT met"}); loaded on demand ${kB(sum.lazy.gzip)} kB ` +
      `gzip; all JS ${kB(total)} kB gzip`,
  );
  results.push({
    bench: "web",
    jsBytes: sum.initial.raw + sum.lazy.raw,
    gzipBytes: total,
    initialGzipBytes: sum.initial.gzip,
    lazyGzipBytes: sum.lazy.gzip,
    chunks,
  });
}

// Server and clients share this machine, so anything else running skews the figures: say so.
const load = () => loadavg()[0]?.toFixed(2);
console.log(
  `machine: ${cpus()[0]?.model ?? "?"}, ${availableParallelism()} cores, Node ${process.version}; ` +
    `load average before: ${load()}`,
);
/** A section heading with the load average at its start: other work skews what follows. */
const section = (title) => console.log(`\n== ${title} (load average ${load()})`);

section("hub + core throughput, 15 and 300 instruments in use");
await tsx("bench/hub.bench.ts");
section("1,000 spread definitions over 200 instruments: time per quote, hub throughput");
await tsx("bench/spread-definitions.bench.ts");
section("position alerts: 10,000 open positions, 1,000 users, time per quote");
await tsx("bench/positions.bench.ts");
// Live orders: fill event → hedge order sent over 1,000 campaigns against the fake Kite.
await tsx("bench/executions.bench.ts");
section("live orders: 200 campaigns with lost answers, 429s, rejected hedges, leader replaced");
await tsx("bench/executions-soak.bench.ts");
section("live orders: 200 campaigns against the production server, kill -9 at random moments");
await tsx("bench/executions-kill.bench.ts");
section("alert engine: 100,000 alerts, crossing tick → Telegram");
await tsx("bench/alert-engine.bench.ts");
section(
  "alert engine on SQLite and PostgreSQL: 100,000 alerts, load, quiet quotes, crossing storm",
);
await tsx("bench/alert-engine-postgres.bench.ts");
section("spread statistics service, all 13 symbols");
await tsx("bench/spread-stats.bench.ts");
section("compact statistics of 1,000 user spreads (2,000 twenty-day windows): memory, accuracy");
// --expose-gc: the figure is what the windows retain, not what garbage happened to be around.
await run("pnpm", [
  "--filter",
  "@spreadwatch/core",
  "exec",
  "node",
  "--expose-gc",
  "--import",
  "tsx",
  "bench/compact-spread-stats.bench.ts",
]);
section("chart data over a year of 1-minute candles");
await tsx("bench/chart-data.bench.ts");
section("backtests over a year of one-minute BUY and SELL candles (MCX hours)");
await tsx("bench/backtests.bench.ts");
section("quote → SSE client latency");
await tsx("bench/sse.bench.ts");
section("cluster: quote → stream client, single process vs non-leader through Redis");
await tsx("bench/cluster-latency.bench.ts");
section("50 stream clients that never read, 5 minutes");
await tsx("bench/slow-clients.bench.ts");
section(
  "change stream: bytes per client-hour (default and every shipped instrument), 100 / 1,000 / 10,000 clients vs a bare floor, 3 runs",
);
// 10,000 sockets per process need more descriptors than the usual 1,024 soft limit.
await run("bash", [
  "-c",
  "ulimit -n 20000 && pnpm --filter @spreadwatch/api exec tsx bench/fanout.bench.ts",
]);
section(
  "change stream: bytes per client-hour with 20 spread definitions in use, and 20 open positions",
);
await tsx("bench/spread-stream.bench.ts");
section("web JS size (fresh build)");
if ((await run("pnpm", ["--filter", "@spreadwatch/web", "build"])) === 0) {
  webSize();
  // The render bench serves the build just made, so it measures the current chart code.
  section("chart render in Chromium");
  await run("node", ["--import", "tsx", "packages/web/e2e/chart-render.bench.ts"]);
  section("the dashboard's stream in Chromium, every shipped instrument in use");
  await run("node", ["--import", "tsx", "packages/web/e2e/dashboard-stream.bench.ts"]);
  section("a live dashboard's renderer in Chromium, on the simulator");
  await run("node", ["--import", "tsx", "packages/web/e2e/dashboard-render.bench.ts"]);
  section("backtest sweep in Chromium's Web Worker");
  await run("node", ["--import", "tsx", "packages/web/e2e/sweep-worker.bench.ts"]);
} else console.error("bench: web build failed; chart render skipped");

section("first start: simulator, empty DATA_DIR, production build");
await tsx("bench/first-start.bench.ts");

section("first start with Kite and Yahoo (fakes on loopback): 20 days of history and statistics");
await tsx("bench/provider-history.bench.ts");

console.log(`\n== summary (load average after: ${load()})`);
const fmt = (n, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits });
const ms = (n) => `${fmt(n, n < 1 ? 3 : n < 10 ? 2 : 1)} ms`;
for (const r of results) {
  if (r.bench === "hub")
    console.log(
      `hub throughput       ${fmt(r.quotesPerSecond)} quotes/s, ${r.instruments ?? 15} instruments in use, ` +
        `${r.quoting ?? 15} quoting (goal ≥ 200,000)`,
    );
  if (r.bench === "spread-definitions")
    console.log(
      `spread definitions   ${fmt(r.definitions)} over ${r.instruments} instruments: per quote p99 ${ms(r.p99Ms)} ` +
        `(USDINR's p99 ${ms(r.usdinrP99Ms)}; goal p99 ≤ 0.2 ms), hub ${fmt(r.quotesPerSecond)} quotes/s, ` +
        `${fmt(r.withSnapshots)} with the stream's snapshots (goal ≥ 200,000), ${fmt(r.readingEvery)} reading every value`,
    );
  if (r.bench === "positions")
    console.log(
      `position alerts      ${fmt(r.positions)} positions, ${fmt(r.users)} users, ${r.spreads} spreads: per quote p50 ${ms(r.p50Ms)}, ` +
        `p99 ${ms(r.p99Ms)} (goal p99 ≤ 0.2 ms; CPU time p99 ${ms(r.cpuP99Ms)}, load ${fmt(r.load, 1)}), ${fmt(r.fired)} fired`,
    );
  if (r.bench === "executions-soak" || r.bench === "executions-kill")
    console.log(
      `${r.bench === "executions-kill" ? "live orders, kill -9" : "live orders, faults "} ${fmt(r.campaigns)} campaigns` +
        `${r.killed === undefined ? "" : `, ${fmt(r.killed)} kills`}: doubled ${r.doubled}, over quantity ` +
        `${r.overQuantity}, naked ${r.naked} (unnoticed ${r.unnoticed}), unsettled ${r.unsettled} (goal 0 doubled, 0 unnoticed)`,
    );
  if (r.bench === "alert-engine")
    console.log(
      `alert engine         ${fmt(r.alerts)} alerts, per hub update p50 ${ms(r.p50Ms)}, p99 ${ms(r.p99Ms)} (goal p50 ≤ 5 ms); ` +
        `quiet p99 ${ms(r.quietP99Ms)}, firing updates p50 ${ms(r.firingP50Ms)} / p99 ${ms(r.firingP99Ms)} / max ${ms(r.firingMaxMs)}; ` +
        `${fmt(r.firings)} firings; start ${ms(r.startMs)}`,
    );
  if (r.bench === "alert-telegram")
    console.log(
      `crossing → Telegram  p50 ${ms(r.p50Ms)}, p99 ${ms(r.p99Ms)} over ${r.firings} firings (goal p99 ≤ 200 ms); ` +
        `${r.burstAlerts} at once: last after ${ms(r.burstLastMs)}`,
    );
  if (r.bench === "alert-engine-store") {
    const storm = r.storm.map((b) => `${fmt(b.firings)} in ${ms(b.medianMs)}`).join(", ");
    console.log(
      `alert engine ${r.store.padEnd(14)} ${fmt(r.alerts)} alerts: start ${r.startMs.map((t) => ms(t)).join(" / ")}; ` +
        `quiet quote p50 ${ms(r.quietP50Ms)}, p99 ${ms(r.quietP99Ms)}; firing quotes (median): ${storm}`,
    );
  }
  if (r.bench === "cluster-latency")
    console.log(
      `quote → stream ${r.target.padEnd(24)} p50 ${fmt(r.p50Ms, 1)} ms, p95 ${fmt(r.p95Ms, 1)} ms, ` +
        `p99 ${fmt(r.p99Ms, 1)} ms (median of the rounds' p99 ${fmt(r.roundP99MedianMs, 1)} ms; n ${fmt(r.count)}, ${r.clients} clients)`,
    );
  if (r.bench === "chart-db")
    console.log(
      `chart DB             ${fmt(r.bytesAll / 1e6, 1)} MB per symbol-year with coarser timeframes, ${fmt(r.bytes1m / 1e6, 1)} MB 1m alone`,
    );
  if (r.bench === "chart-data")
    console.log(
      `chart-data ${r.timeframe.padEnd(3)}       p95 ${ms(r.p95Ms)} in process, ${ms(r.httpP95Ms)} over HTTP (${fmt(r.candles)} candles; goal p95 ≤ 20 ms)`,
    );
  if (r.bench === "sse-idle") console.log(`server RSS idle      ${fmt(r.idleRssMb, 1)} MB`);
  if (r.bench === "sse")
    console.log(
      `SSE ${String(r.subscribers).padStart(5)} subs       p50 ${fmt(r.p50Ms, 1)} ms, p99 ${fmt(r.p99Ms, 1)} ms, RSS ${fmt(r.peakRssMb, 1)} MB` +
        (r.subscribers === 1000 ? " (goal p99 ≤ 50 ms, RSS ≤ 150 MB)" : ""),
    );
  if (r.bench === "stream-bytes")
    console.log(
      `stream bytes         ${fmt(r.mbPerHour, 1)} MB per client-hour (${r.gzip ? "gzip" : "plain"}), ` +
        `${r.instruments ?? 15} instruments in use` +
        (r.gzip ? " (goal ≤ 15)" : ""),
    );
  if (r.bench === "spread-stream-bytes")
    console.log(
      `stream bytes         ${fmt(r.mbPerHour, 1)} MB per client-hour (${r.gzip ? "gzip" : "plain"}), ` +
        `${r.kind === "none" ? "no definitions" : r.kind === "positions" ? "20 definitions private + 20 open positions" : `20 definitions ${r.kind}`} (goal ≤ 15)`,
    );
  if (r.bench === "fanout")
    console.log(
      `fanout ${r.server.padEnd(11)} ${String(r.clients).padStart(5)}  connected ${r.connectedAtEnd}, ` +
        `p50 ${fmt(r.p50Ms, 1)} ms, p99 ${fmt(r.p99Ms, 1)} ms, CPU ${fmt(r.serverCpuPercent)} %, ` +
        `RSS ${fmt(r.peakRssMb, 1)} MB (run ${r.run})` +
        (r.clients === 10000 && r.server === "spreadwatch"
          ? " (goal all connected, p99 ≤ 100 ms)"
          : ""),
    );
  if (r.bench === "fanout-ratio")
    console.log(
      `fanout p99 ratio     ${String(r.clients).padStart(5)} clients, run ${r.run}: spreadwatch / floor ${fmt(r.ratio, 2)}× (goal ≤ 1.3×)`,
    );
  if (r.bench === "slow-clients")
    console.log(
      `slow clients t=${String(r.atSeconds).padStart(3)} s  ${r.clients} never reading: RSS ${fmt(r.rssMb, 1)} MB, ` +
        `streams held ${r.serverStreams}, kernel: unsent ${fmt(r.serverSendQ / 2 ** 20, 1)} MB, ` +
        `unread ${fmt(r.clientRecvQ / 2 ** 20, 1)} MB, machine TCP ${fmt(r.tcpMemBytes / 2 ** 20, 1)} MB`,
    );
  if (r.bench === "web")
    console.log(
      `web JS gzip          initial ${fmt(r.initialGzipBytes / 1000, 1)} kB (goal ≤ 150 kB), on demand ${fmt(r.lazyGzipBytes / 1000, 1)} kB, all ${fmt(r.gzipBytes / 1000, 1)} kB`,
    );
  if (r.bench === "first-start")
    console.log(
      `first start          peak RSS ${r.peakRssMB} MB (goal ≤ 300), listening after ${fmt(r.firstStartSeconds, 1)} s; ` +
        `idle RSS ${r.idleRssMB} MB (goal ≤ 150), idle CPU ${fmt(r.idleCpuPercent, 1)} % of a core (goal ≤ 5)`,
    );
  if (r.bench === "provider-history")
    console.log(
      `provider history     ${r.fetchDays} days of every leg after ${r.legsSeconds ?? "—"} s, the default spreads' ` +
        `statistics after ${r.statsSeconds ?? "—"} s of the Kite login (goal ≤ 60); Kite 429s ${r.kite429}, ` +
        `peak RSS ${r.peakRssMB} MB`,
    );
  if (r.bench === "chart-render")
    console.log(
      `render ${r.kind.padEnd(7)} ${fmt(r.candles).padStart(7)}  median ${ms(r.medianMs)}, p95 ${ms(r.p95Ms)}` +
        (r.candles === 1500 ? " (goal ≤ 16 ms)" : ""),
    );
  if (r.bench === "dashboard-stream")
    console.log(
      `dashboard stream     ${r.screen}: ${fmt(r.mbPerHour, 1)} MB per client-hour (goal ≤ 15), ` +
        `everything ${fmt(r.everythingMbPerHour, 1)} MB, ${r.leftOut} instruments left out`,
    );
  if (r.bench === "sweep-worker")
    console.log(
      `sweep in a worker    ${r.cells} cells × ${r.days} days: ${ms(r.sweepMs)} (goal ≤ 5 s), longest main-thread task ${ms(r.longestTaskMs)} (goal ≤ 50 ms), heat-map render ${ms(r.renderMs)}`,
    );
}
process.exit(failures > 0 ? 1 : 0);
