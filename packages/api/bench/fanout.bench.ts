// Issues 13 and 17: the change stream's bytes per client-hour on the default simulator, and 100 /
// 1,000 / 10,000 stream clients opened within 2 s (as after a restart), on the real server and on
// a bare node:http floor that writes each delta to every client whose socket has drained, side by
// side in each of three runs. Clients run in their own process; the server's RSS and CPU come
// from its own process.
//   BENCH_FANOUT_COUNTS=100,1000  BENCH_FANOUT_RUNS=3  BENCH_FANOUT_SECONDS=10
//   BENCH_HOUR_MINUTES=1 (0 skips it)  BENCH_HOUR_INSTRUMENTS=default,shipped (the fifteen
//   built-in keys in use, then every shipped instrument: BENCHMARKS.md §14)
// Raise the file-descriptor limit first (scripts/bench.mjs runs it under `ulimit -n 20000`).
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ClientsReply, ClientsRequest } from "./fanout-clients.ts";
import type { ServerReply, ServerRequest, ServerStats } from "./sse-server.ts";
import { percentile } from "./stats.ts";

const COUNTS = (process.env.BENCH_FANOUT_COUNTS ?? "100,1000,10000").split(",").map(Number);
const RUNS = Number(process.env.BENCH_FANOUT_RUNS ?? 3);
/** The goal: the real server's p99 within this factor of the floor's in the same run. */
const GOAL_RATIO = 1.3;
const MEASURE_MS = Number(process.env.BENCH_FANOUT_SECONDS ?? 10) * 1000;
const HOUR_MINUTES = Number(process.env.BENCH_HOUR_MINUTES ?? 1);
const HOUR_INSTRUMENTS = (process.env.BENCH_HOUR_INSTRUMENTS ?? "default,shipped").split(",");
/** Clients open over this window, as browsers with jittered backoff come back after a restart. */
const OPEN_MS = Number(process.env.BENCH_FANOUT_OPEN_MS ?? 2_000);
/** Clients ask for gzip as browsers do; BENCH_FANOUT_GZIP=0 for the plain stream. */
const GZIP = process.env.BENCH_FANOUT_GZIP ?? "1";
const WARMUP_MS = 2_000;
const tsxLoader = ["--import", import.meta.resolve("tsx")];
/** BENCH_FANOUT_PROF=dir: the servers run under --cpu-prof, one .cpuprofile per scenario there. */
const PROF_DIR = process.env.BENCH_FANOUT_PROF;
const serverArgs = PROF_DIR
  ? [...tsxLoader, "--cpu-prof", `--cpu-prof-dir=${PROF_DIR}`]
  : [...tsxLoader, ...(process.env.BENCH_FANOUT_NODE_ARGS ?? "").split(" ").filter(Boolean)];
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function start(
  file: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; instruments?: number }> {
  const child = fork(here(file), {
    env: { ...process.env, ...env },
    execArgv: serverArgs,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${file} exited early (${code})`)));
    child.on("message", (reply: ServerReply) => {
      if (reply.type === "ready")
        resolve({ child, url: reply.url, instruments: reply.instruments });
    });
  });
}

function ask<T>(child: ChildProcess, request: object, type: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (reply: { type: string }) => {
      if (reply.type !== type) return;
      child.off("message", onMessage);
      resolve(reply as T);
    };
    child.on("message", onMessage);
    child.send(request);
  });
}
/** `since`: the server's event-loop delay is measured from here. */
const stats = (child: ChildProcess, since = false) =>
  ask<ServerStats>(child, { type: "stats", since } satisfies ServerRequest, "stats");

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.send({ type: "stop" } satisfies ServerRequest);
  });
}

async function clients(url: string, count: number, openMs = OPEN_MS, gzip = GZIP) {
  const args = [url, String(count), "50", String(openMs), gzip];
  const child = fork(here("fanout-clients.ts"), args, {
    execArgv: tsxLoader,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const connected = await new Promise<Extract<ClientsReply, { type: "connected" }>>((resolve) =>
    child.on("message", (reply: ClientsReply) => {
      if (reply.type === "connected") resolve(reply);
    }),
  );
  return { child, connected };
}

/**
 * The real server's data directory, shared by its scenarios: the first start backfills 30 days
 * of candles (hundreds of MB, then a long GC tail) and the others restart on that history, as a
 * deployed server does.
 */
const sharedDataDir = mkdtempSync(join(tmpdir(), "spreadwatch-fanout-"));

async function scenario(kind: "spreadwatch" | "floor", count: number) {
  const dataDir = sharedDataDir;
  const file = kind === "floor" ? "floor-server.ts" : "sse-server.ts";
  const server = await start(file, { DATA_DIR: dataDir });
  try {
    const load = loadavg()[0] ?? 0;
    const { child, connected } = await clients(server.url, count);
    await sleep(WARMUP_MS);
    const before = await stats(server.child, true);
    const startedAt = performance.now();
    let peakRss = before.rss;
    const sampler = setInterval(async () => {
      peakRss = Math.max(peakRss, (await stats(server.child)).rss);
    }, 500);
    const measured = await ask<Extract<ClientsReply, { type: "measured" }>>(
      child,
      { type: "measure", ms: MEASURE_MS } satisfies ClientsRequest,
      "measured",
    );
    clearInterval(sampler);
    const after = await stats(server.child);
    const seconds = (performance.now() - startedAt) / 1000;
    child.send({ type: "stop" } satisfies ClientsRequest);
    return {
      bench: "fanout",
      server: kind,
      clients: count,
      loadBefore: load,
      connectSeconds: connected.seconds,
      connected: connected.connected,
      failed: connected.failed,
      connectedAtEnd: measured.connectedAtEnd,
      p50Ms: percentile(measured.samples, 50),
      p99Ms: percentile(measured.samples, 99),
      samples: measured.samples.length,
      messagesPerClientPerSecond: measured.messagesPerClient / (MEASURE_MS / 1000),
      fewestMessagesPerSecond: measured.fewestMessages / (MEASURE_MS / 1000),
      bytesPerClientPerSecond: measured.bytesPerClient / (MEASURE_MS / 1000),
      serverCpuPercent: ((after.cpuMs - before.cpuMs) / 1000 / seconds) * 100,
      serverLoopDelayP99Ms: after.loopDelayP99Ms,
      clientCpuPercent: (measured.cpuMs / 1000 / (MEASURE_MS / 1000)) * 100,
      peakRssMb: Math.max(peakRss, after.rss) / 2 ** 20,
    };
  } finally {
    await stop(server.child);
  }
}

/**
 * One client on the product's default simulator and clock: bytes received × 60 / minutes, with
 * the default instruments in use (the fifteen) or every shipped one.
 */
async function bytesPerHour(minutes: number, gzip: string, instruments: string) {
  const dataDir = mkdtempSync(join(tmpdir(), "spreadwatch-fanout-"));
  const server = await start("sse-server.ts", {
    DATA_DIR: dataDir,
    BENCH_CLOCK: "plain",
    BENCH_INSTRUMENTS: instruments,
  });
  try {
    const { child } = await clients(server.url, 1, 0, gzip);
    const measured = await ask<Extract<ClientsReply, { type: "measured" }>>(
      child,
      { type: "measure", ms: minutes * 60_000 } satisfies ClientsRequest,
      "measured",
    );
    child.send({ type: "stop" } satisfies ClientsRequest);
    const { priced } = await stats(server.child);
    const mbPerHour = (measured.bytesPerClient * 60) / minutes / 1e6;
    const perSecond = measured.messagesPerClient / (minutes * 60);
    console.log(
      `fanout: one client (${gzip === "1" ? "gzip" : "plain"}), ${minutes} min on the default ` +
        `simulator, ${server.instruments} instruments in use, ${priced} quoting: ${mbPerHour.toFixed(1)} MB per ` +
        `client-hour (goal ≤ 15), ${perSecond.toFixed(1)} messages/s, ` +
        `${(measured.bytesPerClient / measured.messagesPerClient).toFixed(0)} B per message`,
    );
    console.log(
      `RESULT ${JSON.stringify({ bench: "stream-bytes", gzip: gzip === "1", instruments: server.instruments, priced, minutes, mbPerHour, messagesPerSecond: perSecond, bytesPerMessage: measured.bytesPerClient / measured.messagesPerClient })}`,
    );
  } finally {
    await stop(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (HOUR_MINUTES > 0) {
  for (const instruments of HOUR_INSTRUMENTS) {
    await bytesPerHour(HOUR_MINUTES, "1", instruments);
    await bytesPerHour(HOUR_MINUTES, "0", instruments);
  }
}
const f = (n: number, d = 1) => n.toLocaleString("en-US", { maximumFractionDigits: d });
type Row = Awaited<ReturnType<typeof scenario>> & { run: number };

function report(kind: string, r: Row): void {
  console.log(
    `fanout: run ${r.run} ${kind.padEnd(11)} ${f(r.clients, 0).padStart(6)} clients (load ${r.loadBefore.toFixed(2)}, ` +
      `${GZIP === "1" ? "gzip" : "plain"}, opened over ${OPEN_MS} ms): ` +
      `connected ${r.connected}/${r.clients} in ${r.connectSeconds.toFixed(1)} s (${r.failed} failed), ` +
      `${r.connectedAtEnd} at the end; p50 ${f(r.p50Ms)} ms, p99 ${f(r.p99Ms)} ms; ` +
      `${f(r.messagesPerClientPerSecond)} msgs/s per probe (slowest ${f(r.fewestMessagesPerSecond)}), ` +
      `${f(r.bytesPerClientPerSecond / 1000)} kB/s per client; CPU server ${f(r.serverCpuPercent, 0)} %, ` +
      `server loop delay p99 ${f(r.serverLoopDelayP99Ms)} ms, ` +
      `clients ${f(r.clientCpuPercent, 0)} %; RSS ${f(r.peakRssMb)} MB`,
  );
  console.log(`RESULT ${JSON.stringify(r)}`);
}

/** p99 ratio real / floor per count, one per run. */
const ratios = new Map<number, number[]>(COUNTS.map((count) => [count, []]));
for (let run = 1; run <= RUNS; run++) {
  for (const count of COUNTS) {
    // Alternate which goes first: the machine's load drifts, and neither should always get the
    // quieter minute.
    const order = run % 2 === 1 ? ["spreadwatch", "floor"] : ["floor", "spreadwatch"];
    const rows = new Map<string, Row>();
    for (const kind of order as Array<"spreadwatch" | "floor">) {
      const r = { ...(await scenario(kind, count)), run, gzip: GZIP === "1", openMs: OPEN_MS };
      rows.set(kind, r);
      report(kind, r);
    }
    const real = rows.get("spreadwatch") as Row;
    const floor = rows.get("floor") as Row;
    const ratio = real.p99Ms / floor.p99Ms;
    ratios.get(count)?.push(ratio);
    const under100 = (r: Row) => r.connectedAtEnd === count && r.p99Ms <= 100;
    console.log(
      `fanout: run ${run}, ${f(count, 0)} clients, spreadwatch / floor: p99 ${f(ratio, 2)}× ` +
        `(goal ≤ ${GOAL_RATIO}×), CPU ${f(real.serverCpuPercent / floor.serverCpuPercent, 2)}×, ` +
        `RSS ${f(real.peakRssMb / floor.peakRssMb, 2)}×` +
        (count === 10_000
          ? `; all connected and p99 ≤ 100 ms: ${under100(real) ? "met" : "NOT met"} ` +
            `(floor: ${under100(floor) ? "met" : "not met"})`
          : ""),
    );
    console.log(`RESULT ${JSON.stringify({ bench: "fanout-ratio", run, clients: count, ratio })}`);
  }
}
for (const [count, list] of ratios) {
  const met = list.filter((r) => r <= GOAL_RATIO).length;
  console.log(
    `fanout: ${f(count, 0)} clients, p99 spreadwatch / floor over ${list.length} runs: ` +
      `${list.map((r) => `${f(r, 2)}×`).join(", ")}; within ${GOAL_RATIO}× in ${met} of ${list.length}`,
  );
}
rmSync(sharedDataDir, { recursive: true, force: true });
process.exit(0);
