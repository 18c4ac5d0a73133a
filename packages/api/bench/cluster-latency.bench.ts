// BENCHMARKS.md §11: quote → browser latency on an instance that does not lead (its quotes come
// through Redis) against the single process on SQLite, side by side in one run. Three real servers
// run at once, each the production bundle (packages/api/dist/main.mjs, built first) in its own
// process: the single process (SQLite, in-process bus), a leader and a non-leader on one
// PostgreSQL (durable settings, bench/durable-postgres.ts) and one redis-server. Each runs the
// default simulator feed, which stamps every quote with the wall clock at the moment it emits it,
// so for each price entry a stream client receives, latency = arrival − quote timestamp: the
// leader's feed → Redis → the instance's hub → its change stream → the client.
//
// Stream clients (bench/fanout-clients.ts, gzip as browsers ask) run in one process per server;
// all three servers and all clients stay up for the whole run, and the servers are measured in
// turn, in rounds whose order rotates, so every column sees the same machine. Printed, never
// asserted.
//   BENCH_CLUSTER_ROUNDS=6  BENCH_CLUSTER_SECONDS=5  BENCH_CLUSTER_CLIENTS=10
import { type ChildProcess, fork, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openStore, type StoreConfig } from "@spreadwatch/db";
import { createDatabase } from "@spreadwatch/db/testing/postgres";
import { ensureBuilt, START_SCRIPT } from "../../../scripts/production-build.mjs";
import { DATABASE_FILE } from "../src/composition.ts";
import { RedisServer } from "../test/fakes/redis-server.ts";
import { startDurablePostgres } from "./durable-postgres.ts";
import type { ClientsReply, ClientsRequest } from "./fanout-clients.ts";
import { summarize } from "./stats.ts";

const ROUNDS = Number(process.env.BENCH_CLUSTER_ROUNDS ?? 6);
const ROUND_MS = Number(process.env.BENCH_CLUSTER_SECONDS ?? 5) * 1000;
const CLIENTS = Number(process.env.BENCH_CLUSTER_CLIENTS ?? 10);
/** How long the servers may take to lead, backfill and stream their first quotes. */
const READY_TIMEOUT_MS = 90_000;
const WARMUP_MS = 2_000;

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => loadavg().map((n) => n.toFixed(2));

/** The current code as `pnpm start` runs it (the bundle, built or brought up to date first). */
function serverCommand(): { args: string[]; how: string } {
  ensureBuilt({ web: false });
  return {
    args: [START_SCRIPT],
    how: "pnpm start: node scripts/start.mjs (packages/api/dist/main.mjs)",
  };
}

interface Instance {
  name: string;
  child: ChildProcess;
  url: string;
  dataDir: string;
  output: () => string;
}

/** Starts one server process and resolves once it says where it listens. */
function startInstance(
  name: string,
  args: string[],
  env: Record<string, string>,
  dataDir = mkdtempSync(join(tmpdir(), `spreadwatch-cluster-${name}-`)),
) {
  const child = spawn(process.execPath, args, {
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: "0",
      DATA_DIR: dataDir,
      // Every client comes from 127.0.0.1: the bench measures latency, not the per-address limit.
      STREAM_LIMIT_PER_ADDRESS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return new Promise<Instance>((resolve, reject) => {
    const onData = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match?.[1]) return;
      child.stdout?.off("data", onData);
      resolve({ name, child, url: match[1], dataDir, output: () => output });
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}:\n${output}`)));
  });
}

/**
 * One stored minute candle: the server then finds history and skips the 30-day backfill of a
 * first start (a minute of CPU and ~800 MB of heap on PostgreSQL), as a restarted installation
 * would. What streams does not depend on stored history.
 */
async function skipBackfill(config: StoreConfig): Promise<void> {
  const store = await openStore(config);
  const timestamp = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
  const price = { open: 1, high: 1, low: 1, close: 1 };
  await store.candles.save([{ symbol: "GC_BUY", timeframe: "1m", timestamp, ...price }]);
  await store.close();
}

type Health = { instance?: { id: string; leader: boolean }; bus?: { state: string } };

async function health(instance: Instance): Promise<Health> {
  return (await (await fetch(`${instance.url}/api/health`)).json()) as Health;
}

/** Polls `check` every 200 ms until it holds; throws after READY_TIMEOUT_MS. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`cluster: timed out waiting for ${what}`);
    await sleep(200);
  }
}

function stopProcess(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill(signal);
  });
}

/** CPU time (user + system) of a process so far, in ms, from /proc (Linux clock ticks of 10 ms). */
function cpuMs(pid: number | undefined): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

interface Clients {
  child: ChildProcess;
  connected: number;
}

/** CLIENTS stream clients on `url`, every one timing every price entry it receives. */
async function openClients(url: string): Promise<Clients> {
  const child = fork(here("fanout-clients.ts"), [url, String(CLIENTS), String(CLIENTS), "0", "1"], {
    execArgv: ["--import", import.meta.resolve("tsx")],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const reply = await new Promise<Extract<ClientsReply, { type: "connected" }>>((resolve) =>
    child.on("message", (message: ClientsReply) => {
      if (message.type === "connected") resolve(message);
    }),
  );
  return { child, connected: reply.connected };
}

function measure(clients: Clients, ms: number) {
  return new Promise<Extract<ClientsReply, { type: "measured" }>>((resolve) => {
    const onMessage = (reply: ClientsReply) => {
      if (reply.type !== "measured") return;
      clients.child.off("message", onMessage);
      resolve(reply);
    };
    clients.child.on("message", onMessage);
    clients.child.send({ type: "measure", ms } satisfies ClientsRequest);
  });
}

interface Target {
  label: string;
  instance: Instance;
  clients?: Clients;
  samples: number[];
  /** p99 of each round alone: a tail from one bad round (the shared machine) shows here. */
  roundP99: number[];
  messages: number;
  seconds: number;
}

const machine = `${cpus()[0]?.model ?? "?"}, ${availableParallelism()} cores, Node ${process.version}`;
console.log(`cluster: machine ${machine}; load average ${load().join(" ")}`);
const command = serverCommand();
console.log(`cluster: servers run as ${command.how}`);

const postgres = await startDurablePostgres();
const redis = await new RedisServer().start();
const database = await createDatabase(postgres.url);
console.log(
  `cluster: PostgreSQL ${postgres.settings.server_version} (fsync ${postgres.settings.fsync}, ` +
    `synchronous_commit ${postgres.settings.synchronous_commit}), redis-server on ${redis.url}`,
);
const clusterEnv = {
  DATABASE_URL: database.url,
  REDIS_URL: redis.url,
  SESSION_SECRET: "a-session-secret-shared-by-both-benched-instances",
};
const instances: Instance[] = [];
const targets: Target[] = [];
try {
  const started = performance.now();
  const singleDir = mkdtempSync(join(tmpdir(), "spreadwatch-cluster-single-"));
  await skipBackfill({ kind: "sqlite", file: join(singleDir, DATABASE_FILE) });
  await skipBackfill({ kind: "postgres", url: database.url });
  const [single, leader] = await Promise.all([
    startInstance("single", command.args, {}, singleDir),
    startInstance("leader", command.args, { ...clusterEnv, INSTANCE_ID: "leader" }),
  ]);
  instances.push(single, leader);
  await until("the leader to lead", async () => (await health(leader)).instance?.leader === true);
  // Started once the leader leads, so it contends and waits, as a second instance does.
  const follower = await startInstance("non-leader", command.args, {
    ...clusterEnv,
    INSTANCE_ID: "non-leader",
  });
  instances.push(follower);
  await until(
    "the non-leader's bus",
    async () => (await health(follower)).bus?.state === "connected",
  );

  targets.push(
    {
      label: "single process (SQLite)",
      instance: single,
      samples: [],
      roundP99: [],
      messages: 0,
      seconds: 0,
    },
    {
      label: "non-leader (via Redis)",
      instance: follower,
      samples: [],
      roundP99: [],
      messages: 0,
      seconds: 0,
    },
    {
      label: "leader (via Redis)",
      instance: leader,
      samples: [],
      roundP99: [],
      messages: 0,
      seconds: 0,
    },
  );
  for (const target of targets) {
    target.clients = await openClients(target.instance.url);
    if (target.clients.connected !== CLIENTS)
      throw new Error(`${target.label}: ${target.clients.connected} of ${CLIENTS} streams opened`);
  }
  // Quotes flow once each server leads (or its leader does) and has backfilled.
  for (const target of targets) {
    await until(`quotes on the ${target.label}`, async () => {
      const warm = await measure(target.clients as Clients, WARMUP_MS);
      return warm.samples.length > 0;
    });
  }
  console.log(
    `cluster: three servers streaming ${((performance.now() - started) / 1000).toFixed(1)} s ` +
      `after start; ${CLIENTS} stream clients each; ${ROUNDS} rounds of ${ROUND_MS / 1000} s per server`,
  );

  const cpuBefore = instances.map((i) => cpuMs(i.child.pid));
  const measuredFrom = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length] as Target);
    for (const target of order) {
      const result = await measure(target.clients as Clients, ROUND_MS);
      target.samples.push(...result.samples);
      target.roundP99.push(summarize(result.samples).p99);
      target.messages += result.messagesPerClient;
      target.seconds += ROUND_MS / 1000;
    }
    const p99s = targets.map((t) => `${t.label} ${(t.roundP99.at(-1) ?? Number.NaN).toFixed(1)}`);
    console.log(
      `cluster: round ${round + 1}/${ROUNDS} p99 ms: ${p99s.join(", ")}; load average ${load().join(" ")}`,
    );
  }
  const wallSeconds = (performance.now() - measuredFrom) / 1000;
  const cpuPercent = instances.map(
    (instance, i) => ((cpuMs(instance.child.pid) - (cpuBefore[i] ?? 0)) / 1000 / wallSeconds) * 100,
  );
  const roles = await Promise.all([health(leader), health(follower)]);
  if (roles[0].instance?.leader !== true || roles[1].instance?.leader !== false)
    throw new Error(`cluster: leadership moved during the run: ${JSON.stringify(roles)}`);

  console.log(
    "cluster: quote → stream client (arrival − quote timestamp; the server stamps whole " +
      "milliseconds, so each figure reads up to 1 ms high, the same for every column)",
  );
  for (const target of targets) {
    const s = summarize(target.samples);
    const i = instances.indexOf(target.instance);
    const cpu = cpuPercent[i] ?? Number.NaN;
    const rss = rssMb(target.instance.child.pid);
    const messagesPerSecond = target.messages / target.seconds;
    const roundP99 = summarize(target.roundP99);
    console.log(
      `cluster: ${target.label.padEnd(24)} p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms, ` +
        `p99 ${s.p99.toFixed(2)} ms (rounds' p99 median ${roundP99.p50.toFixed(1)} ms), ` +
        `max ${s.max.toFixed(1)} ms, n ${s.n.toLocaleString("en-US")}; ` +
        `${messagesPerSecond.toFixed(1)} messages/s a client; server CPU ${cpu.toFixed(0)} %, ` +
        `RSS ${rss.toFixed(0)} MB`,
    );
    console.log(
      `RESULT ${JSON.stringify({
        bench: "cluster-latency",
        target: target.label,
        clients: CLIENTS,
        seconds: target.seconds,
        count: s.n,
        p50Ms: s.p50,
        p95Ms: s.p95,
        p99Ms: s.p99,
        maxMs: s.max,
        roundP99Ms: target.roundP99,
        roundP99MedianMs: roundP99.p50,
        messagesPerSecond,
        serverCpuPercent: cpu,
        rssMb: rss,
        server: command.how,
        machine,
      })}`,
    );
  }
} finally {
  for (const target of targets) target.clients?.child.kill();
  // The non-leader first, so the leader's going does not start an election mid-teardown.
  for (const instance of [...instances].reverse()) await stopProcess(instance.child);
  for (const instance of instances) rmSync(instance.dataDir, { recursive: true, force: true });
  await redis.dispose();
  await database.drop();
  postgres.stop();
}
