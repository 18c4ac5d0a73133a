// `pnpm start`: builds what is missing or out of date (the web app, the server bundle), then runs
// the bundled server in the foreground with the caller's environment (DESIGN §5): plain
// JavaScript, no TypeScript loader at run time. `node scripts/start.mjs users …` (and `kite …`)
// runs a CLI's bundle the same way. Relative DATA_DIR / REPLAY_FILE are resolved against the
// directory pnpm was started from.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const callerDir = process.env.INIT_CWD ?? process.cwd();
const CLIS = new Set(["users", "kite"]);
const [first, ...rest] = process.argv.slice(2);
const entry = CLIS.has(first) ? first : "main";
const args = entry === "main" ? process.argv.slice(2) : rest;

function run(command, commandArgs) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Newest modification time under `dir` (0 when it does not exist). */
function newest(dir) {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const item of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (item.isFile())
      latest = Math.max(latest, statSync(join(item.parentPath, item.name)).mtimeMs);
  }
  return latest;
}

if (entry === "main" && !existsSync(join(root, "packages/web/dist/index.html"))) {
  console.log("Building the web app (first start)…");
  run("pnpm", ["--filter", "@spreadwatch/web", "build"]);
}

// A checkout that was pulled (or edited) since the last build gets a fresh bundle, so `pnpm start`
// never runs yesterday's code; the check costs a few milliseconds.
const bundle = join(root, "packages/api/dist", `${entry}.mjs`);
const built = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
const sources = Math.max(
  ...["api", "core", "db"].map((p) => newest(join(root, "packages", p, "src"))),
  statSync(join(root, "pnpm-lock.yaml")).mtimeMs,
  statSync(join(root, "scripts/build-server.mjs")).mtimeMs,
);
if (built < sources) {
  console.log("Bundling the server…");
  run(process.execPath, [join(root, "scripts/build-server.mjs")]);
}

process.env.DATA_DIR = resolve(callerDir, process.env.DATA_DIR || "data");
if (process.env.REPLAY_FILE) process.env.REPLAY_FILE = resolve(callerDir, process.env.REPLAY_FILE);

// Run in this process rather than a child: one Node process (and its ~40 MB) fewer, and signals
// reach the server's own handlers directly. The bundle reads its arguments from process.argv.
process.chdir(root);
process.argv = [process.argv[0], bundle, ...args];
await import(pathToFileURL(bundle).href);
