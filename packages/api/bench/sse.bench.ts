// Quote → SSE client latency with 1, 100 and 1,000 subscribers of market.onSnapshot on loopback,
// and the server's RSS at 1,000. Clients are raw HTTP GETs in this process: up to PROBES of them
// parse every snapshot and time each quote in it; the rest only count what arrives, so the
// client side (which shares the machine with the server) stays cheap.
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { type ClientRequest, get, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createPreciseClock } from "./clock.ts";
import type { ServerReply, ServerRequest, ServerStats } from "./sse-server.ts";

// Overridable for exploring, e.g. BENCH_SSE_COUNTS=1000 BENCH_SSE_SECONDS=5.
const COUNTS = (process.env.BENCH_SSE_COUNTS ?? "1,100,1000").split(",").map(Number);
const MEASURE_MS = Number(process.env.BENCH_SSE_SECONDS ?? 10) * 1000;
const WARMUP_MS = 1_000;
const PROBES = 50;
const GOAL_P99_MS = 50;
const GOAL_RSS_MB = 150;

const now = createPreciseClock();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Run {
  recording: boolean;
  /** Quote → arrival, in ms, one per instrument update a probe saw. */
  samples: number[];
  errors: number;
}

interface Client {
  request: ClientRequest;
  /** Snapshots (probes) or SSE event ends (others) received so far. */
  events: number;
  subscribed: Promise<void>;
}

type Snapshot = { prices: Record<string, Record<string, { timestamp?: number }> | number | null> };

/** The data of a plain `data:` event; named ones (`connected`, `ping`) and blanks have none. */
function snapshotData(event: string): string | undefined {
  let data: string | undefined;
  for (const line of event.split("\n")) {
    if (line.startsWith("event:")) return undefined;
    if (line.startsWith("data:")) data = `${data ?? ""}${line.slice(5).trimStart()}`;
  }
  return data;
}

/** Times every instrument whose quote is newer than in this probe's previous snapshot. */
function probe(res: IncomingMessage, client: Client, run: Run, subscribed: () => void) {
  const seen = new Map<string, number>();
  let buffer = "";
  res.setEncoding("utf8");
  res.on("data", (chunk: string) => {
    const receivedAt = now();
    buffer += chunk;
    for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
      const data = snapshotData(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (data === undefined) continue;
      // The first snapshot is the state at connect time, not fresh quotes.
      const timing = client.events > 0 && run.recording;
      client.events++;
      const { prices } = JSON.parse(data) as Snapshot;
      for (const [group, entries] of Object.entries(prices)) {
        if (entries === null || typeof entries !== "object") continue;
        for (const [key, { timestamp }] of Object.entries(entries)) {
          const path = `${group}.${key}`;
          if (timestamp === undefined || timestamp <= (seen.get(path) ?? 0)) continue;
          seen.set(path, timestamp);
          if (timing) run.samples.push(receivedAt - timestamp);
        }
      }
      subscribed();
    }
  });
}

/** Counts event ends ("\n\n") without decoding; subscribed once a snapshot has arrived. */
function sink(res: IncomingMessage, client: Client, subscribed: () => void) {
  let lastByte = 0;
  let seenSnapshot = false;
  res.on("data", (chunk: Buffer) => {
    if (!seenSnapshot && chunk.includes('"prices"')) {
      seenSnapshot = true;
      subscribed();
    }
    if (lastByte === 10 && chunk[0] === 10) client.events++;
    for (let i = chunk.indexOf("\n\n"); i !== -1; i = chunk.indexOf("\n\n", i + 2)) client.events++;
    lastByte = chunk[chunk.length - 1] ?? 0;
  });
}

function connect(url: string, run: Run, isProbe: boolean): Client {
  const client = { events: 0 } as Client;
  client.subscribed = new Promise<void>((resolve, reject) => {
    client.request = get(`${url}/api/trpc/market.onSnapshot`, { agent: false }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`market.onSnapshot answered ${res.statusCode}`));
      } else if (isProbe) probe(res, client, run, resolve);
      else sink(res, client, resolve);
    });
    client.request.on("error", (error) => {
      if (run.recording) run.errors++;
      reject(error);
    });
  });
  return client;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(new URL("./sse-server.ts", import.meta.url)), {
    env: { ...process.env, DATA_DIR: dataDir },
    execArgv: [
      "--import",
      import.meta.resolve("tsx"),
      // BENCH_CPU_PROF=<dir> writes the server's CPU profile there, to see where its time goes.
      ...(process.env.BENCH_CPU_PROF
        ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
        : []),
    ],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`bench server exited early (${code})`)));
    child.once("message", (reply: ServerReply) => {
      if (reply.type === "ready") resolve({ child, url: reply.url });
    });
  });
}

function stats(child: ChildProcess, since = false): Promise<ServerStats> {
  return new Promise((resolve) => {
    const onMessage = (reply: ServerReply) => {
      if (reply.type !== "stats") return;
      child.off("message", onMessage);
      resolve(reply);
    };
    child.on("message", onMessage);
    child.send({ type: "stats", since } satisfies ServerRequest);
  });
}

async function scenario(child: ChildProcess, url: string, count: number) {
  const run: Run = { recording: false, samples: [], errors: 0 };
  const probeEvery = Math.ceil(count / PROBES);
  const clients: Client[] = [];
  // Connect in waves so the listen backlog never overflows.
  for (let i = 0; i < count; i += 100) {
    const size = Math.min(100, count - i);
    const wave = Array.from({ length: size }, (_, j) =>
      connect(url, run, (i + j) % probeEvery === 0),
    );
    clients.push(...wave);
    await Promise.all(wave.map((c) => c.subscribed));
  }
  await sleep(WARMUP_MS);

  const eventsBefore = clients.map((c) => c.events);
  const before = await stats(child, true);
  const clientCpuBefore = process.cpuUsage();
  // If the clients' own loop runs late, arrivals are stamped late: the figure then overstates.
  const clientLoop = monitorEventLoopDelay({ resolution: 5 });
  clientLoop.enable();
  const started = performance.now();
  run.recording = true;
  let last = before;
  let peakRss = before.rss;
  while (performance.now() - started < MEASURE_MS) {
    await sleep(250);
    last = await stats(child);
    peakRss = Math.max(peakRss, last.rss);
  }
  run.recording = false;
  clientLoop.disable();
  const seconds = (performance.now() - started) / 1000;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const fewestEvents = Math.min(...clients.map((c, i) => c.events - (eventsBefore[i] ?? 0)));
  for (const c of clients) c.request.destroy();

  const sorted = run.samples.sort((a, b) => a - b);
  return {
    subscribers: count,
    serverSubscribers: last.subscribers,
    probes: Math.ceil(count / probeEvery),
    samples: sorted.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.at(-1) ?? Number.NaN,
    slowestClientEventsPerSecond: fewestEvents / seconds,
    peakRssMb: peakRss / 2 ** 20,
    serverCpuPercent: ((last.cpuMs - before.cpuMs) / 1000 / seconds) * 100,
    clientCpuPercent: ((clientCpu.user + clientCpu.system) / 1e6 / seconds) * 100,
    serverLoopDelayP99Ms: last.loopDelayP99Ms,
    clientLoopDelayP99Ms: clientLoop.percentile(99) / 1e6,
    errors: run.errors,
  };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.send({ type: "stop" } satisfies ServerRequest);
  });
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const dataDir = mkdtempSync(join(tmpdir(), "spreadwatch-bench-"));
try {
  // A first start on an empty data directory backfills 30 days of candles; a running server has
  // long done that, so the figures come from a second start on the same directory.
  const firstStarted = performance.now();
  const first = await startServer(dataDir);
  const firstSeconds = (performance.now() - firstStarted) / 1000;
  const afterBackfill = await stats(first.child);
  await stop(first.child);
  const { child, url } = await startServer(dataDir);
  try {
    const idle = await stats(child);
    console.log(
      `sse: first start (with backfill) took ${firstSeconds.toFixed(1)} s, RSS then ` +
        `${mb(afterBackfill.rss)}; restarted at ${url}, idle RSS ${mb(idle.rss)}`,
    );
    console.log(
      `RESULT ${JSON.stringify({ bench: "sse-idle", firstStartSeconds: firstSeconds, firstStartRssMb: afterBackfill.rss / 2 ** 20, idleRssMb: idle.rss / 2 ** 20 })}`,
    );
    for (const count of COUNTS) {
      const r = await scenario(child, url, count);
      const goal =
        count === 1_000
          ? `; goal p99 ≤ ${GOAL_P99_MS} ms: ${r.p99Ms <= GOAL_P99_MS ? "met" : "NOT met"}, ` +
            `RSS ≤ ${GOAL_RSS_MB} MB: ${r.peakRssMb <= GOAL_RSS_MB ? "met" : "NOT met"}`
          : "";
      console.log(
        `sse: ${count} subscribers (${r.probes} timed): p50 ${r.p50Ms.toFixed(1)} ms, ` +
          `p99 ${r.p99Ms.toFixed(1)} ms, max ${r.maxMs.toFixed(1)} ms over ` +
          `${r.samples.toLocaleString("en-US")} quote arrivals; slowest client ` +
          `${r.slowestClientEventsPerSecond.toFixed(1)} events/s; server RSS peak ` +
          `${r.peakRssMb.toFixed(1)} MB; CPU server ${r.serverCpuPercent.toFixed(0)} %, ` +
          `clients ${r.clientCpuPercent.toFixed(0)} %; event-loop delay p99 server ` +
          `${r.serverLoopDelayP99Ms.toFixed(1)} ms, clients ${r.clientLoopDelayP99Ms.toFixed(1)} ms; ` +
          `errors ${r.errors}${goal}`,
      );
      console.log(`RESULT ${JSON.stringify({ bench: "sse", ...r })}`);
      // Let the server see the closed streams before the next wave.
      await sleep(1_000);
    }
  } finally {
    await stop(child);
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
