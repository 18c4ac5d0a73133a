// What `pnpm start` runs, and how it is kept up to date: the web build in packages/web/dist and the
// server bundle in packages/api/dist. Shared by `scripts/start.mjs` and the test set-up, so the
// tests start exactly the artifact a user starts.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const START_SCRIPT = join(ROOT, "scripts/start.mjs");
/**
 * What `pnpm start` puts in the server's environment (package.json's "start", unless the caller
 * set it): glibc's malloc keeps at most two arenas instead of up to eight a core, one for each
 * thread that allocates (libuv's pool, V8's workers), each holding freed memory. An idle server
 * measured 120 MB RSS against 136, and 146-147 MB against 158-159 with 1,000 stream clients
 * (BENCHMARKS.md §47). The tests pass it to every server they start (TEST_SERVER_ENV), and so does
 * the first-start bench.
 */
export const START_ENV = { MALLOC_ARENA_MAX: "2" };
export const WEB_INDEX = join(ROOT, "packages/web/dist/index.html");

/** The bundle of `entry` ("main", "users" or "kite"). */
export const bundlePath = (entry) => join(ROOT, "packages/api/dist", `${entry}.mjs`);

function run(command, args) {
  // Vitest's global set-up runs with NODE_ENV=test, which makes Vite bundle React's development
  // build (StrictMode's doubled effects and all): the tests must start what users start.
  const env = { ...process.env, NODE_ENV: "production" };
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit", env });
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

const mtime = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);

/** True when a source, the lockfile or the bundler script changed after the bundle was made. */
export function bundleIsStale(entry = "main") {
  const sources = Math.max(
    ...["api", "core", "db"].map((p) => newest(join(ROOT, "packages", p, "src"))),
    mtime(join(ROOT, "pnpm-lock.yaml")),
    mtime(join(ROOT, "scripts/build-server.mjs")),
  );
  return mtime(bundlePath(entry)) < sources;
}

/** True when the web app was never built or its sources (or core's) changed since. */
export function webIsStale() {
  const web = (path) => join(ROOT, "packages/web", path);
  const sources = Math.max(
    newest(web("src")),
    newest(web("public")),
    newest(web("scripts")),
    mtime(web("index.html")),
    mtime(web("vite.config.ts")),
    newest(join(ROOT, "packages/core/src")),
    mtime(join(ROOT, "pnpm-lock.yaml")),
  );
  return mtime(WEB_INDEX) < sources;
}

/**
 * Builds the web app and the server bundle when either is missing or older than its sources, so
 * a pulled (or edited) checkout never runs yesterday's code.
 */
export function ensureBuilt({ web = true, entry = "main" } = {}) {
  if (web && webIsStale()) {
    console.log("Building the web app…");
    run("pnpm", ["--filter", "@spreadwatch/web", "build"]);
  }
  if (bundleIsStale(entry)) {
    console.log("Bundling the server…");
    run(process.execPath, [join(ROOT, "scripts/build-server.mjs")]);
  }
}
