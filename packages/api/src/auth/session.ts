import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  deleteSession,
  findSession,
  findSessionEnd,
  findUserById,
  type SessionEndReason,
  touchSession,
  type User,
} from "@spreadwatch/db";
import { getIronSession, type SessionOptions } from "iron-session";
import type { Context } from "../context.ts";

export const SESSION_COOKIE = "spreadwatch_session";
/** Writing last_seen_at on every request would make each price poll a disk write. */
const TOUCH_INTERVAL_MS = 60_000;
/** The cookie outlives any idle limit; the server's sessions table decides validity. */
const COOKIE_TTL_SECONDS = 400 * 24 * 60 * 60;

interface CookieData {
  sid?: string;
}

export interface AuthSettings {
  password: string;
  cookieSecure: boolean;
  idleMs: number;
}

export type SessionState =
  | { kind: "valid"; sessionId: string; user: User }
  | { kind: "ended"; reason: Exclude<SessionEndReason, "logged_out"> }
  | { kind: "none" };

function cookieOptions(settings: AuthSettings): SessionOptions {
  return {
    cookieName: SESSION_COOKIE,
    password: settings.password,
    ttl: COOKIE_TTL_SECONDS,
    cookieOptions: { httpOnly: true, sameSite: "lax", secure: settings.cookieSecure, path: "/" },
  };
}

function cookieSession(req: IncomingMessage, res: ServerResponse, settings: AuthSettings) {
  return getIronSession<CookieData>(req, res, cookieOptions(settings));
}

export function newSessionId(): string {
  return randomBytes(32).toString("base64url");
}

/** The session a request carries, read once per request and cached on the context. */
export function resolveSession(ctx: Context): Promise<SessionState> {
  ctx.sessionState ??= readSession(ctx);
  return ctx.sessionState;
}

async function readSession(ctx: Context): Promise<SessionState> {
  const { req, res, services } = ctx;
  if (!req || !res) return { kind: "none" };
  const { sid } = await cookieSession(req, res, services.auth);
  if (!sid) return { kind: "none" };
  const { db } = services;
  const now = Date.now();
  const session = findSession(db, sid);
  if (session) {
    if (now - session.lastSeenAt > services.auth.idleMs) {
      deleteSession(db, sid, "expired", now);
      return { kind: "ended", reason: "expired" };
    }
    const user = findUserById(db, session.userId);
    if (!user) return { kind: "none" };
    if (now - session.lastSeenAt > TOUCH_INTERVAL_MS) touchSession(db, sid, now);
    return { kind: "valid", sessionId: sid, user };
  }
  const end = findSessionEnd(db, sid);
  if (!end || end.reason === "logged_out") return { kind: "none" };
  return { kind: "ended", reason: end.reason };
}

export async function saveSessionCookie(ctx: Context, sessionId: string): Promise<void> {
  if (!ctx.req || !ctx.res) return;
  const cookie = await cookieSession(ctx.req, ctx.res, ctx.services.auth);
  cookie.sid = sessionId;
  await cookie.save();
  ctx.sessionState = undefined;
}

export async function clearSessionCookie(ctx: Context): Promise<void> {
  if (!ctx.req || !ctx.res) return;
  const cookie = await cookieSession(ctx.req, ctx.res, ctx.services.auth);
  cookie.destroy();
  ctx.sessionState = undefined;
}

export function clientAddress(ctx: Context): string | undefined {
  return ctx.req?.socket.remoteAddress;
}
