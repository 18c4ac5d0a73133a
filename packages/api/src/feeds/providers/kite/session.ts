import { createHash } from "node:crypto";
import { readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import type { Store } from "@spreadwatch/db";
import type { KiteSettings } from "../../../config/index.ts";
import { callOutbound, isOutboundTimeout } from "../../../outbound/policy.ts";

/** Where releases before the database held the token kept it (imported once, see below). */
export const SESSION_FILE = "kite-session.json";

/** The day's Kite access token, as stored in the database. */
export interface KiteSession {
  accessToken: string;
  userId: string;
  savedAt: number;
  /** Kite ends every session at 06:00 IST the next morning. */
  expiresAt: number;
}

export type StoredSession =
  | { kind: "valid"; session: KiteSession }
  | { kind: "missing" }
  | { kind: "expired"; session: KiteSession }
  | { kind: "unreadable"; reason: string };

/** A refusal or failure of the token exchange, worded for the admin. */
export class KiteLoginError extends Error {
  override name = "KiteLoginError";
}

const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const SIX_HOURS_MS = 6 * 60 * 60 * 1000;

/** The first 06:00 IST after `at`: when a token issued at `at` stops working. */
export function kiteSessionExpiry(at: number): number {
  const local = at + IST_OFFSET_MS;
  let six = Math.floor(local / DAY_MS) * DAY_MS + SIX_HOURS_MS;
  if (local >= six) six += DAY_MS;
  return six - IST_OFFSET_MS;
}

/**
 * Kite's login page for this app. `state` (the server's one-time token) rides in
 * `redirect_params`, which Kite hands back to the callback as query parameters; the CLI, which
 * has no callback, passes none.
 */
export function kiteLoginUrl(settings: KiteSettings, state?: string): string {
  const url = new URL(settings.loginUrl);
  url.searchParams.set("v", "3");
  url.searchParams.set("api_key", settings.apiKey ?? "");
  if (state !== undefined) url.searchParams.set("redirect_params", `state=${state}`);
  return url.toString();
}

/** The database key every instance reads the day's Kite session from. */
export const KITE_SESSION_KEY = "kite.session";

/**
 * The day's Kite session in the database (store.keyValues), not in a file of one machine: a
 * login on any instance, or the CLI, is seen by every instance, and by whichever leads next
 * after a failover. The Kite provider polls `read` (one key, only on the leader).
 */
export interface KiteSessions {
  read(now: number): Promise<StoredSession>;
  save(session: KiteSession): Promise<void>;
}

export function kiteSessionsIn(store: Pick<Store, "keyValues">): KiteSessions {
  return {
    async read(now) {
      return sessionState(await store.keyValues.get(KITE_SESSION_KEY), now);
    },
    async save(session) {
      await store.keyValues.set(KITE_SESSION_KEY, session, session.savedAt);
    },
  };
}

/** What a stored value says: a valid or expired session, none, or something unusable. */
export function sessionState(value: unknown, now: number): StoredSession {
  if (value === undefined || value === null) return { kind: "missing" };
  const session = value as KiteSession;
  if (typeof session.accessToken !== "string" || typeof session.expiresAt !== "number")
    return { kind: "unreadable", reason: "the stored session lacks accessToken or expiresAt" };
  return session.expiresAt > now ? { kind: "valid", session } : { kind: "expired", session };
}

/**
 * One-time import of DATA_DIR/kite-session.json, where releases before the database held the
 * token kept it: saved to the database unless the database already has a session at least as
 * new, then renamed to kite-session.json.imported so it is never read again (a stale file must
 * not override a later login). From then on only the database is used.
 */
export async function importKiteSessionFile(
  sessions: KiteSessions,
  dataDir: string,
): Promise<"imported" | "superseded" | "none"> {
  const file = join(dataDir, SESSION_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return "none";
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const fromFile = sessionState(parsed, Number.NEGATIVE_INFINITY);
  // An unreadable file is left where it is, for the admin to look at; it is never used.
  if (fromFile.kind !== "valid") return "none";
  const inDatabase = await sessions.read(Number.NEGATIVE_INFINITY);
  const newer = !("session" in inDatabase) || inDatabase.session.savedAt < fromFile.session.savedAt;
  if (newer) await sessions.save(fromFile.session);
  renameSync(file, `${file}.imported`);
  return newer ? "imported" : "superseded";
}

/** An admin waits on the exchange (browser redirect or CLI): it answers within this, whatever Kite does. */
export const KITE_EXCHANGE_DEADLINE_MS = 10_000;

/** Nothing reached Kite (refused or unresolvable): safe to try again with the one-time token. */
function neverSent(error: Error): boolean {
  const code = (error.cause as NodeJS.ErrnoException | undefined)?.code;
  return code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN";
}

interface KiteEnvelope {
  status?: string;
  message?: string;
  data?: { access_token?: string; user_id?: string };
}

/**
 * Trades the request token Kite's login redirect carries for the day's access token
 * (POST /session/token with checksum = sha256(api_key + request_token + api_secret)).
 */
export async function exchangeRequestToken(
  settings: KiteSettings,
  requestToken: string,
  now: () => number = Date.now,
  deadlineMs: number = KITE_EXCHANGE_DEADLINE_MS,
): Promise<KiteSession> {
  const { apiKey, apiSecret } = settings;
  if (!apiKey || !apiSecret)
    throw new KiteLoginError(
      "Kite Connect is not configured (set KITE_API_KEY and KITE_API_SECRET)",
    );
  const checksum = createHash("sha256")
    .update(apiKey + requestToken + apiSecret)
    .digest("hex");
  let answer: { ok: boolean; status: number; body: KiteEnvelope };
  try {
    // A request token works once: only a request that never left is retried.
    answer = await callOutbound(
      {
        attempts: 2,
        attemptTimeoutMs: deadlineMs,
        deadlineMs,
        initialDelayMs: 250,
        retryIf: neverSent,
      },
      async (signal) => {
        const response = await fetch(`${settings.apiRoot}/session/token`, {
          method: "POST",
          headers: { "X-Kite-Version": "3", "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ api_key: apiKey, request_token: requestToken, checksum }),
          signal,
        });
        // Read inside the attempt: its signal is aborted once it returns.
        const body = (await response.json().catch(() => ({}))) as KiteEnvelope;
        return { ok: response.ok, status: response.status, body };
      },
    );
  } catch (error) {
    const reason = isOutboundTimeout(error)
      ? `no answer within ${deadlineMs / 1000} s`
      : (error as Error).message;
    throw new KiteLoginError(`Could not reach Kite: ${reason}`);
  }
  const { ok, status, body } = answer;
  const token = body.data?.access_token;
  if (!ok || body.status !== "success" || !token) {
    const reason = body.message ?? `HTTP ${status}`;
    throw new KiteLoginError(`Kite refused the login: ${reason}`);
  }
  const savedAt = now();
  return {
    accessToken: token,
    userId: body.data?.user_id ?? "",
    savedAt,
    expiresAt: kiteSessionExpiry(savedAt),
  };
}
