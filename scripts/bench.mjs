// `pnpm bench`: the figures issue 2 asks for, printed, never asserted (BENCHMARKS.md records them).
//   1. hub + core throughput (quotes/s incl. recalculation)
//   2. quote → SSE client latency with 1, 100, 1,000 subscribers, and server RSS
//   3. built web JS size, gzip
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

function webSize() {
  const assets = join(root, "packages/web/dist/assets");
  let raw = 0;
  let gzip = 0;
  for (const name of readdirSync(assets).filter((n) => n.endsWith(".js"))) {
    const bytes = readFileSync(join(assets, name));
    raw += bytes.length;
    gzip += gzipSync(bytes).length; // zlib's default level 6, what most servers send
  }
  const kB = (n) => (n / 1000).toFixed(1);
  console.log(
    `web: ${kB(raw)} kB of JS, ${kB(gzip)} kB gzip; goal ≤ 150 kB: ${gzip <= 150_000 ? "met" : "NOT met"}`,
  );
  results.push({ bench: "web", jsBytes: raw, gzipBytes: gzip });
}

// Server and clients share this machine, so anything else running skews the figures: say so.
const load = () => loadavg()[0]?.toFixed(2);
console.log(
  `machine: ${cpus()[0]?.model ?? "?"}, ${availableParallelism()} cores, Node ${process.version}; ` +
    `load average before: ${load()}\n`,
);
console.log("== hub + core throughput");
await tsx("bench/hub.bench.ts");
console.log("\n== quote → SSE client latency");
await tsx("bench/sse.bench.ts");
console.log("\n== web JS size (fresh build)");
if ((await run("pnpm", ["--filter", "@spreadwatch/web", "build"])) === 0) webSize();

console.log(`\n== summary (load average after: ${load()})`);
const fmt = (n, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits });
for (const r of results) {
  if (r.bench === "hub")
    console.log(`hub throughput       ${fmt(r.quotesPerSecond)} quotes/s (goal ≥ 200,000)`);
  if (r.bench === "sse-idle") console.log(`server RSS idle      ${fmt(r.idleRssMb, 1)} MB`);
  if (r.bench === "sse")
    console.log(
      `SSE ${String(r.subscribers).padStart(5)} subs       p50 ${fmt(r.p50Ms, 1)} ms, p99 ${fmt(r.p99Ms, 1)} ms, RSS ${fmt(r.peakRssMb, 1)} MB` +
        (r.subscribers === 1000 ? " (goal p99 ≤ 50 ms, RSS ≤ 150 MB)" : ""),
    );
  if (r.bench === "web")
    console.log(`web JS gzip          ${fmt(r.gzipBytes / 1000, 1)} kB (goal ≤ 150 kB)`);
}
process.exit(failures > 0 ? 1 : 0);
