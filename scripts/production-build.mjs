// What `pnpm start` runs, and how it is kept up to date: the web build in packages/web/dist and the
// server bundle in packages/api/dist. Shared by `scripts/start.mjs` and the test set-up, so the
// tests start exactly the artifact a user starts.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const START_SCRIPT = join(ROOT, "scripts/start.mjs");
export const WEB_INDEX = join(ROOT, "packages/web/dist/index.html");

/** The bundle of `entry` ("main", "users" or "kite"). */
export const bundlePath = (entry) => join(ROOT, "packages/api/dist", `${entry}.mjs`);

function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit" });
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

/** True when a source, the lockfile or the bundler script changed after the bundle was made. */
export function bundleIsStale(entry = "main") {
  const bundle = bundlePath(entry);
  const built = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
  const sources = Math.max(
    ...["api", "core", "db"].map((p) => newest(join(ROOT, "packages", p, "src"))),
    statSync(join(ROOT, "pnpm-lock.yaml")).mtimeMs,
    statSync(join(ROOT, "scripts/build-server.mjs")).mtimeMs,
  );
  return built < sources;
}

/**
 * Builds the web app when it was never built and the server bundle when it is missing or older
 * than its sources, so a pulled (or edited) checkout never runs yesterday's code.
 */
export function ensureBuilt({ web = true, entry = "main" } = {}) {
  if (web && !existsSync(WEB_INDEX)) {
    console.log("Building the web app (first start)…");
    run("pnpm", ["--filter", "@spreadwatch/web", "build"]);
  }
  if (bundleIsStale(entry)) {
    console.log("Bundling the server…");
    run(process.execPath, [join(ROOT, "scripts/build-server.mjs")]);
  }
}
