// The daily Kite Connect login for servers without a browser at hand:
//   pnpm kite login-url                              print the login URL; open it anywhere and log in
//   … kite session <request_token|URL>              trade the token from the redirect for the day's access token
//   … kite status                                   show the stored session
// Reads DATA_DIR (or DATABASE_URL), KITE_API_KEY, KITE_API_SECRET (and KITE_API_ROOT, KITE_LOGIN_URL)
// like the server. The session goes into the database (key kite.session), where every running
// instance's Kite provider picks it up within seconds.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config/index.ts";
import { openConfiguredStore } from "../database.ts";
import {
  exchangeRequestToken,
  importKiteSessionFile,
  KiteLoginError,
  type KiteSessions,
  kiteLoginUrl,
  kiteSessionsIn,
} from "../feeds/providers/kite/session.ts";

const USAGE = `Usage:
  pnpm kite login-url
  pnpm kite session <request_token | the whole redirect URL>
  pnpm kite status
Needs KITE_API_KEY and KITE_API_SECRET; the session is stored in the database (DATABASE_URL, or
the SQLite file in DATA_DIR), where every instance reads it.`;

class UsageError extends Error {}

/** Accepts the bare token or the URL Kite redirected to (with ?request_token=…). */
function requestTokenFrom(text: string | undefined): string {
  if (!text) throw new UsageError(`Give the request_token from Kite's redirect.\n${USAGE}`);
  if (!/^https?:\/\//.test(text)) return text;
  const token = new URL(text).searchParams.get("request_token");
  if (!token) throw new UsageError("That URL has no request_token parameter.");
  return token;
}

async function run(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: "boolean", short: "h", default: false } },
  });
  const [command, argument] = positionals;
  if (values.help || !command) return console.log(USAGE);
  const dataDir = resolve(process.env.INIT_CWD ?? process.cwd(), process.env.DATA_DIR || "data");
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir });
  const { kite } = config;
  if (command !== "status" && command !== "login-url" && command !== "session")
    throw new UsageError(`Unknown command "${command}".\n${USAGE}`);
  if (command !== "status" && (!kite.apiKey || !kite.apiSecret))
    throw new UsageError(
      "Set KITE_API_KEY and KITE_API_SECRET (the Kite Connect app's key and secret).",
    );
  if (command === "login-url") return console.log(kiteLoginUrl(kite));
  const store = await openConfiguredStore(config).catch((error: Error) => {
    // One line for the operator (a stopped PostgreSQL, a wrong DATA_DIR), not a stack.
    throw new UsageError(`Could not open the database: ${error.message}`);
  });
  try {
    const sessions = kiteSessionsIn(store);
    await importKiteSessionFile(sessions, dataDir);
    if (command === "status") return await status(sessions);
    const session = await exchangeRequestToken(kite, requestTokenFrom(argument));
    await sessions.save(session);
    console.log(
      `Stored the Kite session of ${session.userId || "?"}, valid until ${new Date(session.expiresAt).toISOString()}.`,
    );
  } finally {
    await store.close();
  }
}

async function status(sessions: KiteSessions): Promise<void> {
  const stored = await sessions.read(Date.now());
  if (stored.kind === "missing") return console.log("No Kite session stored.");
  if (stored.kind === "unreadable") throw new UsageError(`Kite session: ${stored.reason}`);
  const { session } = stored;
  const until = new Date(session.expiresAt).toISOString();
  console.log(
    `Kite session of ${session.userId || "?"}: ${stored.kind === "valid" ? `valid until ${until}` : `expired at ${until}`}`,
  );
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (
    error instanceof UsageError ||
    error instanceof KiteLoginError ||
    error instanceof ConfigError
  ) {
    console.error(error.message);
  } else {
    console.error("kite:", error);
  }
  process.exit(1);
});
