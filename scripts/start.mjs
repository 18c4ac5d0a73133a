// `pnpm start`: builds the web app if it has never been built, then runs the server in the
// foreground with the caller's environment (DESIGN §5). Relative DATA_DIR / REPLAY_FILE are
// resolved against the directory pnpm was started from.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const callerDir = process.env.INIT_CWD ?? process.cwd();

if (!existsSync(join(root, "packages/web/dist/index.html"))) {
  console.log("Building the web app (first start)…");
  const build = spawnSync("pnpm", ["--filter", "@spreadwatch/web", "build"], {
    cwd: root,
    stdio: "inherit",
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const env = { ...process.env };
env.DATA_DIR = resolve(callerDir, env.DATA_DIR || "data");
if (env.REPLAY_FILE) env.REPLAY_FILE = resolve(callerDir, env.REPLAY_FILE);

const server = spawn(
  process.execPath,
  ["--import", "tsx", join(root, "packages/api/src/main.ts")],
  {
    cwd: root,
    env,
    stdio: "inherit",
  },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
