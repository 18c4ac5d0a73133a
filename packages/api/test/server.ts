import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Quote } from "@spreadwatch/core";
import { START_SCRIPT } from "../../../scripts/production-build.mjs";
import { loadConfig } from "../src/config/index.ts";
import type { Feed } from "../src/feeds/feed.ts";
import { createFeed, type FeedSources } from "../src/feeds/index.ts";
import { dutiesFrom, type RunningServer, startServer } from "../src/server.ts";
import { until } from "./fakes/wait.ts";
import { processEnv, TEST_SERVER_ENV } from "./test-env.ts";

export const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

export const ADMIN = { username: "admin", password: "admin-password-1" } as const;

export interface TestServer extends RunningServer {
  dataDir: string;
  /** What the server logged at start (e.g. the first admin's boxed password). */
  startLog: string[];
  /**
   * Stops this server and starts a new one on the same DATA_DIR (same database and session
   * secret), with a fresh manual feed unless the overrides say otherwise.
   */
  restart(overrides?: { env?: Record<string, string>; feed?: Feed }): Promise<TestServer>;
  stop(): Promise<void>;
}

/**
 * A real server on 127.0.0.1 with an ephemeral port and its own temp DATA_DIR. The first admin
 * is ADMIN unless the env says otherwise.
 */
export async function startTestServer(
  options: {
    env?: Record<string, string>;
    /** The feed, or how to make it from the server's store (a Kite provider reads its token there). */
    feed?: Feed | ((sources: FeedSources) => Feed);
    webDist?: string;
    dataDir?: string;
  } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "spreadwatch-api-"));
  const config = loadConfig({
    ...TEST_SERVER_ENV,
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    ...options.env,
  });
  const feed =
    options.feed ?? ((sources: FeedSources) => createFeed(config, dutiesFrom(config), sources));
  const startLog: string[] = [];
  const server = await startServer({
    config,
    feed,
    log: (text) => startLog.push(text),
    ...(options.webDist && { webDist: options.webDist }),
  });
  return {
    ...server,
    dataDir,
    startLog,
    async restart(overrides = {}) {
      await server.close();
      const env = { ...options.env, ...overrides.env };
      const feed = overrides.feed ?? (overrides.env ? undefined : manualFeed());
      const { feed: _previous, ...rest } = options;
      return startTestServer({ ...rest, env, dataDir, ...(feed && { feed }) });
    },
    async stop() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Resolves once a simulator's first start has stored its month (it logs "Backfilled …"): the
 * server listens before it (docs/history.md, "The first start"). A deadline for a loaded machine.
 */
export async function backfilled(server: TestServer, timeoutMs = 600_000): Promise<string> {
  const said = () => server.startLog.find((line) => line.startsWith("Backfilled"));
  await until(() => said() !== undefined, "the first start's backfill", timeoutMs);
  return said() as string;
}

/** A feed the test drives by hand. */
export function manualFeed(): Feed & { push(quote: Quote): void; readonly started: boolean } {
  let sink: ((quote: Quote) => void) | undefined;
  return {
    name: "manual",
    /** Whether a leader has started it: a quote pushed before then reaches nobody. */
    get started() {
      return sink !== undefined;
    },
    start(onQuote) {
      sink = onQuote;
    },
    stop() {
      sink = undefined;
    },
    push(quote) {
      sink?.(quote);
    },
  };
}

export interface MainProcess {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * Runs the server exactly as `pnpm start` does (`node scripts/start.mjs`, which runs the bundle
 * in packages/api/dist) with the given env: what the process-level tests prove is what ships.
 */
export function runMain(env: Record<string, string>): MainProcess {
  let out = "";
  let err = "";
  const child = spawn(process.execPath, [START_SCRIPT], {
    env: {
      ...processEnv(),
      HOST: "127.0.0.1",
      PORT: "0",
      ...TEST_SERVER_ENV,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Resolves with the URL once the server says it is listening; rejects if it exits first. */
export function listeningUrl(main: MainProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(main.stdout());
      if (match?.[1]) {
        main.child.stdout?.off("data", check);
        resolve(match[1]);
      }
    };
    main.child.stdout?.on("data", check);
    // `exited` only ever resolves (with the exit code), so there is no rejection to lose.
    void main.exited.then((code) =>
      reject(new Error(`server exited with ${code}: ${main.stderr()}`)),
    );
  });
}
