// A first start as a user makes it: `node scripts/start.mjs` (the production bundle) with the
// simulator on an empty DATA_DIR, which listens at once and backfills 30 days after. Reports the
// peak RSS of the whole start (VmHWM), the seconds until it listens and until the backfill is
// stored, how long GET /api/prices took at most while it was (asked one after another the whole
// time), then — after it has settled, no client connected — its RSS and the share of one core it
// uses over a minute (utime + stime from /proc). Goals: peak ≤ 300 MB, idle RSS ≤ 150 MB, idle
// CPU ≤ 5 % (docs/operations.md, "The first start"). Linux only (/proc).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { START_ENV } from "../../../scripts/production-build.mjs";

const ROOT = resolve(import.meta.dirname, "../../..");
const SETTLE_S = Number(process.env.BENCH_FIRST_START_SETTLE_SECONDS ?? 60);
const IDLE_S = Number(process.env.BENCH_FIRST_START_IDLE_SECONDS ?? 60);
/** /proc/<pid>/stat counts CPU time in clock ticks: 100 a second on Linux. */
const TICKS_PER_S = 100;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const mb = (kB: number) => Math.round(kB / 1024);

function status(pid: number, field: "VmHWM" | "VmRSS"): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(
    readFileSync(`/proc/${pid}/status`, "utf8"),
  );
  return Number(match?.[1] ?? Number.NaN);
}

function cpuTicks(pid: number): number {
  // Fields after the command's parenthesis: utime and stime are the 14th and 15th of the line.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

const dataDir = mkdtempSync(join(tmpdir(), "spreadwatch-first-start-"));
const started = performance.now();
const server = spawn(process.execPath, [join(ROOT, "scripts/start.mjs")], {
  cwd: ROOT,
  env: {
    ...START_ENV,
    PATH: process.env.PATH ?? "",
    HOST: "127.0.0.1",
    PORT: "0",
    FEED: "simulator",
    DATA_DIR: dataDir,
    ADMIN_USERNAME: "admin",
    ADMIN_PASSWORD: "first-start-bench",
  },
  stdio: ["ignore", "pipe", "inherit"],
});
const pid = server.pid as number;
try {
  let output = "";
  await new Promise<void>((done, fail) => {
    server.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on http/.test(output)) done();
    });
    server.once("exit", (code) => fail(new Error(`the server exited (${code}):\n${output}`)));
  });
  const firstStartS = (performance.now() - started) / 1000;
  const peakAtListen = status(pid, "VmHWM");
  const url = /listening on (http:\/\/\S+)/.exec(output)?.[1] as string;
  // Served while it backfills: each answer's time, one request after another.
  const answers: number[] = [];
  while (!/Backfilled .* in [\d.]+ s\./.test(output)) {
    const asked = performance.now();
    const res = await fetch(`${url}/api/prices`);
    await res.arrayBuffer();
    answers.push(performance.now() - asked);
    if (res.status !== 200) throw new Error(`/api/prices answered ${res.status}`);
  }
  const backfilledS = (performance.now() - started) / 1000;
  const backfill = /Backfilled .* in ([\d.]+) s\./.exec(output)?.[1];
  answers.sort((a, b) => a - b);
  const p99 = answers[Math.floor(answers.length * 0.99)] ?? Number.NaN;
  await sleep(SETTLE_S * 1000);
  const before = cpuTicks(pid);
  const from = performance.now();
  await sleep(IDLE_S * 1000);
  const idleCpu = (cpuTicks(pid) - before) / TICKS_PER_S / ((performance.now() - from) / 1000);
  const result = {
    bench: "first-start",
    peakRssMB: mb(status(pid, "VmHWM")),
    peakRssAtListenMB: mb(peakAtListen),
    firstStartSeconds: Number(firstStartS.toFixed(1)),
    backfilledSeconds: Number(backfilledS.toFixed(1)),
    backfillSeconds: backfill === undefined ? null : Number(backfill),
    pricesWhileBackfilling: {
      answers: answers.length,
      p99Ms: Number(p99.toFixed(1)),
      maxMs: Number((answers.at(-1) ?? Number.NaN).toFixed(1)),
    },
    idleRssMB: mb(status(pid, "VmRSS")),
    idleCpuPercent: Number((idleCpu * 100).toFixed(1)),
    settleSeconds: SETTLE_S,
    idleSeconds: IDLE_S,
  };
  console.log(
    `first start: peak RSS ${result.peakRssMB} MB (goal ≤ 300), listening after ` +
      `${result.firstStartSeconds} s, backfill stored after ${result.backfilledSeconds} s ` +
      `(its own ${result.backfillSeconds} s; ${answers.length} /api/prices answers meanwhile, ` +
      `p99 ${result.pricesWhileBackfilling.p99Ms} ms, max ${result.pricesWhileBackfilling.maxMs} ms); after ${SETTLE_S} s ` +
      `settling: RSS ${result.idleRssMB} MB (goal ≤ 150), CPU ${result.idleCpuPercent} % of a ` +
      `core over ${IDLE_S} s (goal ≤ 5)`,
  );
  console.log(`RESULT ${JSON.stringify(result)}`);
} finally {
  server.kill("SIGTERM");
  await new Promise((done) => (server.exitCode === null ? server.once("exit", done) : done(null)));
  rmSync(dataDir, { recursive: true, force: true });
}
