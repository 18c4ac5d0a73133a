import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { KiteSettings } from "../../../config.ts";
import { callOutbound, isOutboundTimeout } from "../../../outbound/policy.ts";

export const SESSION_FILE = "kite-session.json";

/** The day's Kite access token, as stored in DATA_DIR. */
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

export function readKiteSession(dataDir: string, now: number): StoredSession {
  let text: string;
  try {
    text = readFileSync(join(dataDir, SESSION_FILE), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
    return { kind: "unreadable", reason: (error as Error).message };
  }
  try {
    const session = JSON.parse(text) as KiteSession;
    if (typeof session.accessToken !== "string" || typeof session.expiresAt !== "number")
      return { kind: "unreadable", reason: `${SESSION_FILE} lacks accessToken or expiresAt` };
    return session.expiresAt > now ? { kind: "valid", session } : { kind: "expired", session };
  } catch {
    return { kind: "unreadable", reason: `${SESSION_FILE} is not valid JSON` };
  }
}

/** Written whole and then renamed, so a running server never reads half a file. */
export function writeKiteSession(dataDir: string, session: KiteSession): void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, SESSION_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
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
