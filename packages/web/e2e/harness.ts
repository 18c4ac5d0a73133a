import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type Browser, chromium, type Page } from "playwright-core";
import { START_SCRIPT } from "../../../scripts/production-build.mjs";
import { TEST_SERVER_ENV, withRealClock } from "../../api/test/test-env.ts";
import { shiftPageClocks } from "./shifted-clock.ts";

const REPO_ROOT = resolve(import.meta.dirname, "../../..");
const WEB_DIST = resolve(REPO_ROOT, "packages/web/dist/index.html");
// A simulator app backfills 30 days on its first start: ~20 s on a quiet machine, over a minute
// on a loaded one. A safety net for a hung start, not a measure of speed.
const START_TIMEOUT_MS = 180_000;
/** Past simulator-template-setup.ts's limit for the shared first start (300 s). */
const TEMPLATE_WAIT_MS = 330_000;
const STOP_TIMEOUT_MS = 10_000;

/**
 * For a test's own requests (`page.request`): one retry of a connection the server reset. The
 * request context keeps connections alive, and one idle past the server's keep-alive timeout
 * (Node's 5 s) may be closed just as a request goes out on it, likelier on a loaded machine where
 * the wait between two requests runs long (a hog run: "socket hang up" on the Kite login after a
 * slow sign-in). A browser sends such a request again, as api/test/http-client.ts does.
 */
export const RETRY_RESET = { maxRetries: 1 } as const;

/** The first admin every test server starts with (ADMIN_USERNAME / ADMIN_PASSWORD). */
export const ADMIN = { username: "admin", password: "admin-e2e-secret" } as const;

export interface StartOptions {
  /** "composite" takes its providers from a MARKET_DATA_CONFIG file named in `env`. */
  feed: "simulator" | "replay" | "composite";
  /** Contents of the replay CSV (docs/design.md §4); written to a temp file for the server. */
  replayCsv?: string;
  /** REPLAY_SPEED; 0 (default here) plays the file at once and then holds the last prices. */
  replaySpeed?: number;
  env?: Record<string, string>;
}

/** The server's variables for a fake Telegram Bot API at `apiRoot`, as @spreadwatch_bot. */
export function telegramEnv(apiRoot: string, token = "123456:e2e-token"): Record<string, string> {
  return {
    TELEGRAM_BOT_TOKEN: token,
    TELEGRAM_BOT_USERNAME: "spreadwatch_bot",
    TELEGRAM_API_ROOT: apiRoot,
  };
}

export interface RunningApp {
  url: string;
  stop(): Promise<void>;
}

export interface RestartableApp extends RunningApp {
  /** Stops the server process, keeping its data directory: the page now finds nobody there. */
  halt(): Promise<void>;
  /** Starts it again on the same port and data directory (same users, sessions and secret). */
  restart(): Promise<void>;
}

/** The server's environment without what vitest sets for itself, so the app runs as users run it. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith("VITEST") || key === "NODE_ENV" || key === "TEST") delete env[key];
  }
  return env;
}

/**
 * Starts the real server as `pnpm start` runs it (the bundle in packages/api/dist) on an ephemeral
 * port with a fresh data directory, serving the web build that `pnpm test` made beforehand.
 */
export async function startApp(options: StartOptions): Promise<RestartableApp> {
  if (!existsSync(WEB_DIST)) {
    throw new Error("packages/web/dist is missing: run `pnpm build` before the e2e tests");
  }
  const root = await mkdtemp(join(tmpdir(), "spreadwatch-e2e-"));
  const env: NodeJS.ProcessEnv = {
    ...cleanEnv(),
    ...TEST_SERVER_ENV,
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: join(root, "data"),
    FEED: options.feed,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    ...options.env,
  };
  if (options.feed === "simulator" && !options.env?.DATA_DIR) {
    await copySimulatorTemplate(options.env ?? {}, join(root, "data"));
  }
  if (options.replayCsv !== undefined) {
    env.REPLAY_FILE = join(root, "replay.csv");
    env.REPLAY_SPEED = String(options.replaySpeed ?? 0);
    await writeFile(env.REPLAY_FILE, options.replayCsv);
  }
  let child = spawnServer(env);
  try {
    const url = await waitForListening(child);
    return {
      url,
      async halt() {
        await stopProcessGroup(child);
      },
      async restart() {
        await stopProcessGroup(child);
        child = spawnServer({ ...env, PORT: new URL(url).port });
        await waitForListening(child);
      },
      async stop() {
        await stopProcessGroup(child);
        await rm(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopProcessGroup(child);
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The environment of a simulator app whose test reads no history: the server keeps a day, so it
 * makes a first start of its own of a day (not the run's month, copied and read into the
 * statistics at start) and each instrument put in use later backfills a day, not 30
 * (docs/operations.md, "The first start").
 */
export const A_DAY_OF_HISTORY = { HISTORY_RETENTION_DAYS: "1" } as const;

/**
 * What a first start writes besides the backfill: with any of these set, the shared first start
 * (simulator-template-setup.ts, made with ADMIN and the defaults) is not this app's, so it makes
 * its own.
 */
const FIRST_START_ENV = /^(ADMIN_|SESSION_SECRET$|HISTORY_)/;

/**
 * Under vitest, a simulator app starts from a copy of the run's one simulator first start
 * instead of backfilling the same 30 days again (docs/operations.md, "The first start"): it waits for
 * the template, then copies it into `dataDir`. Outside vitest, or when the template could not
 * be made, the app makes its own first start.
 */
async function copySimulatorTemplate(env: Record<string, string>, dataDir: string) {
  if (!process.env.VITEST || Object.keys(env).some((key) => FIRST_START_ENV.test(key))) return;
  const { inject } = await import("vitest");
  const template = inject("simulatorTemplate");
  if (!template) return;
  // The template's maker gives up after its own limit and says so ("failed"): wait that long.
  const deadline = Date.now() + TEMPLATE_WAIT_MS;
  for (;;) {
    if (existsSync(join(template, "data"))) break;
    if (existsSync(join(template, "failed"))) {
      console.warn(
        `no simulator template: ${readFileSync(join(template, "failed"), "utf8").slice(0, 2000)}`,
      );
      return;
    }
    if (Date.now() > deadline) throw new Error("the simulator template did not appear in time");
    await sleep(100);
  }
  await cp(join(template, "data"), dataDir, { recursive: true });
}

/** `pnpm start`'s script in its own process group, so stopping it reaches every process it made. */
function spawnServer(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [START_SCRIPT], {
    cwd: REPO_ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** The address a server's output says it listens on, once it says so. */
export function listeningAddress(output: string): string | undefined {
  return /listening on (http:\/\/[^\s)]+)/.exec(output)?.[1];
}

function waitForListening(child: ChildProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const address = listeningAddress(output);
      if (address) {
        clearTimeout(timer);
        child.off("exit", onExit);
        resolvePromise(address);
      }
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${output}`));
    };
    const timer = setTimeout(() => {
      child.off("exit", onExit);
      reject(new Error(`server did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", onExit);
  });
}

async function stopProcessGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || !groupAlive(pid)) return;
  signalGroup(pid, "SIGTERM");
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  // Wait for the whole group, not just the process spawned: nothing it started may linger.
  while (groupAlive(pid)) {
    if (Date.now() > deadline) {
      signalGroup(pid, "SIGKILL");
      break;
    }
    await sleep(50);
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    env: withRealClock(process.env),
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  shiftPageClocks(browser);
  return browser;
}

export interface PageOptions {
  width?: number;
  height?: number;
  colorScheme?: "light" | "dark";
  /** A touch screen: taps instead of hovers. */
  hasTouch?: boolean;
  /**
   * Test pages prefer reduced motion unless a test is about the motion itself ("no-preference":
   * the flash and its contrast). The 1.5 s flash of every moving cell repaints the page each
   * frame: a fifth of a live dashboard's renderer CPU (docs/architecture.md, "Tests"). The app
   * keeps every state it shows (the flash's class, data-highlight); only the animation goes.
   */
  reducedMotion?: "reduce" | "no-preference";
}

/** A test page's viewport, colour scheme and motion: `options` over the defaults. */
export function pageSettings(options: PageOptions = {}) {
  return {
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? "light",
    reducedMotion: options.reducedMotion ?? "reduce",
  } as const;
}

/** A fresh browser context (no shared cookies or storage) with one page. */
export async function newPage(browser: Browser, options: PageOptions = {}): Promise<Page> {
  const context = await browser.newContext({
    ...pageSettings(options),
    hasTouch: options.hasTouch ?? false,
  });
  return context.newPage();
}

/** Signs in through the login screen and waits for the dashboard. */
export async function login(
  page: Page,
  url: string,
  username: string,
  password: string,
): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByLabel("Username", { exact: true }).fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL(`${url}/`);
}

/**
 * Signs in through the REST API on the page's browser context (its cookie jar takes the session)
 * and opens the dashboard: what a test that is not about the login screen needs, one page load
 * fewer than `login` (the login screen's, ~0.4 CPU s of Chromium: BENCHMARKS.md §37).
 */
export async function signIn(
  page: Page,
  url: string,
  username: string,
  password: string,
): Promise<void> {
  const response = await page.request.post(`${url}/api/auth/login`, {
    data: { username, password },
    ...RETRY_RESET,
  });
  if (!response.ok()) {
    throw new Error(`signing in ${username}: ${response.status()} ${await response.text()}`);
  }
  await page.goto(`${url}/`);
}

export interface NewUser {
  username: string;
  password: string;
  is_admin?: boolean;
  alerts_enabled?: boolean;
}

/**
 * Creates users through the REST API as the first admin. That login ends any browser session
 * of the admin (one session per user), so call it before signing the admin in on a page.
 */
export async function createUsers(url: string, users: NewUser[]): Promise<void> {
  const login = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (!login.ok) throw new Error(`admin login failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  for (const user of users) {
    const created = await fetch(`${url}/api/auth/users`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ is_admin: false, alerts_enabled: false, ...user }),
    });
    if (!created.ok) throw new Error(`creating ${user.username}: ${await created.text()}`);
  }
  await fetch(`${url}/api/auth/logout`, { method: "POST", headers: { cookie } });
}
