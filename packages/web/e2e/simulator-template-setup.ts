import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { ROOT, START_SCRIPT } from "../../../scripts/production-build.mjs";
import { TEST_SERVER_ENV } from "../../api/test/test-env.ts";
import { claimFirstStart, WATCH_FILES } from "./first-start-watch.ts";
import { ADMIN, cleanEnv, listeningAddress } from "./harness.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the simulator's first-start DATA_DIR appears once made (harness.ts copies it). */
    simulatorTemplate: string;
  }
}

/**
 * A first start on a loaded machine takes minutes; past this the template is given up (the
 * simulator files then make their own), though a file watching the first start keeps it.
 */
const FIRST_START_LIMIT_MS = 300_000;
/** The watching file's own limit for its month (first-start-statistics.test.ts), and a margin. */
const WATCH_LIMIT_MS = 1_200_000;

let child: ChildProcess | undefined;
let root: string | undefined;
/** Set by teardown: the run is over and the directory gone, so nothing more is written there. */
let over = false;

/**
 * Vitest global set-up of the e2e project: the simulator's first start (30 days backfilled,
 * docs/operations.md) made ONCE per run, by the production build itself, into a DATA_DIR that
 * every simulator test file copies instead of backfilling the same month again. It runs in the
 * background: files that do not need it start at once, and those that do wait for the
 * directory to appear (harness.ts). What each file starts is still `pnpm start` on its own copy.
 * The file that checks what a first start shows watches this one while it runs
 * (first-start-watch.ts): if it claims it first, the server is stopped once it is done.
 */
export function setup(project: TestProject): void {
  root = mkdtempSync(join(tmpdir(), "spreadwatch-e2e-template-"));
  project.provide("simulatorTemplate", root);
  const building = join(root, "building");
  mkdirSync(building);
  const env = {
    ...cleanEnv(),
    ...TEST_SERVER_ENV,
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: join(building, "data"),
    FEED: "simulator",
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
  };
  const made = root;
  const server = spawn(process.execPath, [START_SCRIPT], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = server;
  let output = "";
  let failed = false;
  const fail = (why: string) => {
    if (over || failed) return;
    failed = true;
    writeFileSync(join(made, "failed"), `${why}\n${output}`);
    // A watching file keeps the server until it is done (or its own limit is past).
    if (!claimFirstStart(made)) return stopWhenWatched(made, server, WATCH_LIMIT_MS);
    stop(server);
  };
  const limit = setTimeout(() => fail("no first start within the limit"), FIRST_START_LIMIT_MS);
  limit.unref();
  let listening = false;
  let backfilled = false;
  // Read to the end: a server held for a watching file goes on logging, and a full pipe would
  // block its writes.
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    if (backfilled) return;
    const address = listeningAddress(output);
    if (address && !listening) {
      listening = true;
      writeFileSync(join(made, `${WATCH_FILES.address}.new`), address);
      renameSync(join(made, `${WATCH_FILES.address}.new`), join(made, WATCH_FILES.address));
    }
    // The server listens first and makes the month after (docs/history.md, "The first start"):
    // the template is the finished backfill, not the open port.
    if (!listening || !/Backfilled \d/.test(output)) return;
    backfilled = true;
    clearTimeout(limit);
    // A clean stop (SIGTERM) closes the database; the directory then moves into place whole.
    server.once("exit", (code) => {
      if (over || failed) return;
      if (code !== 0) return fail(`the first start exited with ${code} when stopped`);
      renameSync(join(building, "data"), join(made, "data"));
    });
    if (claimFirstStart(made)) stop(server);
    else stopWhenWatched(made, server, WATCH_LIMIT_MS);
  };
  server.stdout?.on("data", onData);
  server.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  server.once("exit", (code) => {
    if (!/Backfilled \d/.test(output)) fail(`the first start exited with ${code}`);
  });
}

/** Stops `server` once the file watching it says it is done, or `limitMs` from now. */
function stopWhenWatched(dir: string, server: ChildProcess, limitMs: number): void {
  const deadline = Date.now() + limitMs;
  const timer = setInterval(() => {
    if (over || server.exitCode !== null) return clearInterval(timer);
    if (!existsSync(join(dir, WATCH_FILES.watched)) && Date.now() < deadline) return;
    clearInterval(timer);
    stop(server);
  }, 200);
  timer.unref();
}

function stop(server: ChildProcess): void {
  if (server.pid === undefined || server.exitCode !== null) return;
  try {
    process.kill(-server.pid, "SIGTERM");
  } catch {
    // Already gone.
  }
}

export function teardown(): void {
  over = true;
  if (child?.pid !== undefined && child.exitCode === null) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  if (root) rmSync(root, { recursive: true, force: true });
}
