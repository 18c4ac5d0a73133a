import { randomBytes } from "node:crypto";
import type { SessionEndReason, Store, User } from "@spreadwatch/db";
import { parse, serialize } from "hono/utils/cookie";
import { sealData, unsealData } from "iron-session";
import { warnEvery } from "../log.ts";

export const SESSION_COOKIE = "spreadwatch_session";
/** Writing last_seen_at on every request would make each price poll a disk write. */
const TOUCH_INTERVAL_MS = 60_000;
/** The cookie outlives any idle limit; the server's sessions table decides validity. */
const COOKIE_TTL_SECONDS = 400 * 24 * 60 * 60;
/** iron-session's margin: the browser forgets the cookie a minute before its seal expires. */
const COOKIE_MAX_AGE_SECONDS = COOKIE_TTL_SECONDS - 60;
const BAD_COOKIE_LOG_INTERVAL_MS = 60_000;

interface CookieData {
  sid?: string;
}

export interface AuthSettings {
  password: string;
  /** scrypt's cost for passwords set from now on (PASSWORD_HASH_COST, auth/passwords.ts). */
  passwordCost: number;
  cookieSecure: boolean;
  idleMs: number;
}

export type SessionState =
  | { kind: "valid"; sessionId: string; user: User }
  | { kind: "ended"; reason: Exclude<SessionEndReason, "logged_out"> }
  | { kind: "none" };

function setCookie(http: RequestInfo, settings: AuthSettings, value: string, maxAge: number) {
  const cookie = serialize(SESSION_COOKIE, value, {
    httpOnly: true,
    sameSite: "Lax",
    secure: settings.cookieSecure,
    path: "/",
    maxAge,
  });
  http.resHeaders.append("set-cookie", cookie);
}

/**
 * The session id the cookie carries, if its seal is ours. A cookie that is malformed, tampered
 * with or sealed under another secret means "signed out" (and is cleared), never an error: it
 * arrives with every poll, so it is logged at most once a minute.
 */
async function readSessionId(
  http: RequestInfo,
  settings: AuthSettings,
): Promise<string | undefined> {
  const seal = parse(http.headers.get("cookie") ?? "", SESSION_COOKIE)[SESSION_COOKIE];
  if (!seal) return undefined;
  try {
    const data = await unsealData<CookieData>(seal, {
      password: settings.password,
      ttl: COOKIE_TTL_SECONDS,
    });
    return typeof data.sid === "string" && data.sid !== "" ? data.sid : undefined;
  } catch (error) {
    warnEvery(
      "session-cookie",
      BAD_COOKIE_LOG_INTERVAL_MS,
      { address: http.address, reason: (error as Error).message },
      "unreadable session cookie: treated as signed out",
    );
    setCookie(http, settings, "", 0);
    return undefined;
  }
}

/** The HTTP side of a request, as procedures may see it (only this file reads it). */
export interface RequestInfo {
  /** The request's headers: the session cookie is read from here. */
  headers: Headers;
  /** Added to the response: the session cookie is written here. */
  resHeaders: Headers;
  /** The client's address, X-Forwarded-For honoured as TRUST_PROXY says (client-address.ts). */
  address: string;
}

/** What reading and writing a session needs of a procedure's context (context.ts Context). */
export interface SessionContext {
  services: { auth: AuthSettings; store: Store };
  /** Absent for in-process callers (tests, createCaller without a request). */
  http?: RequestInfo;
  /** Filled on first use by resolveSession, so a request reads its cookie once. */
  sessionState?: Promise<SessionState> | undefined;
}

export function newSessionId(): string {
  return randomBytes(32).toString("base64url");
}

/** The session a request carries, read once per request and cached on the context. */
export function resolveSession(ctx: SessionContext): Promise<SessionState> {
  ctx.sessionState ??= readSession(ctx);
  return ctx.sessionState;
}

async function readSession(ctx: SessionContext): Promise<SessionState> {
  const { http, services } = ctx;
  if (!http) return { kind: "none" };
  const sid = await readSessionId(http, services.auth);
  if (!sid) return { kind: "none" };
  const { store } = services;
  const now = Date.now();
  const session = await store.sessions.find(sid);
  if (session) {
    if (now - session.lastSeenAt > services.auth.idleMs) {
      await store.sessions.end(sid, "expired", now);
      return { kind: "ended", reason: "expired" };
    }
    const user = await store.users.findById(session.userId);
    if (!user) return { kind: "none" };
    if (now - session.lastSeenAt > TOUCH_INTERVAL_MS) await store.sessions.touch(sid, now);
    return { kind: "valid", sessionId: sid, user };
  }
  const end = await store.sessions.findEnd(sid);
  if (!end || end.reason === "logged_out") return { kind: "none" };
  return { kind: "ended", reason: end.reason };
}

export async function saveSessionCookie(ctx: SessionContext, sessionId: string): Promise<void> {
  if (!ctx.http) return;
  const { auth } = ctx.services;
  const seal = await sealData({ sid: sessionId } satisfies CookieData, {
    password: auth.password,
    ttl: COOKIE_TTL_SECONDS,
  });
  setCookie(ctx.http, auth, seal, COOKIE_MAX_AGE_SECONDS);
  ctx.sessionState = undefined;
}

export async function clearSessionCookie(ctx: SessionContext): Promise<void> {
  if (!ctx.http) return;
  setCookie(ctx.http, ctx.services.auth, "", 0);
  ctx.sessionState = undefined;
}

/** Where the request comes from (per TRUST_PROXY), for per-address limits. */
export function clientAddress(ctx: SessionContext): string | undefined {
  return ctx.http?.address;
}
