import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REST_ROUTES } from "../src/rest/routes.ts";
import { appRouter } from "../src/router.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

// The whole surface, walked with no session, a user session and an admin session. A procedure or
// path is "signed-in only" unless listed here, so a new route that forgets its guard fails.
const PUBLIC_PROCEDURES = new Set([
  "market.prices",
  "market.calculations",
  "market.snapshot",
  "market.onSnapshot",
  "auth.login",
  "auth.logout",
  "auth.status",
  "auth.heartbeat",
  "health.status",
]);
const ADMIN_PROCEDURES = new Set([
  "users.list",
  "users.create",
  "users.delete",
  "users.setPermission",
  "kite.status",
  "kite.loginUrl",
  "kite.exchange",
  "instruments.add",
  "instruments.remove",
  "liveOrders.get",
  "liveOrders.set",
  "liveOrders.setTrader",
  "history.fetchAgain",
]);
const ALERT_PROCEDURES = new Set([
  "alerts.list",
  "alerts.create",
  "alerts.update",
  "alerts.delete",
  "alerts.trigger",
  "alerts.history",
]);
const PUBLIC_PATHS = new Set([
  "GET /api/prices",
  "GET /api/calculations",
  "POST /api/auth/login",
  "POST /api/auth/logout",
  "GET /api/auth/status",
  "GET /api/auth/heartbeat",
  "GET /api/health",
]);
/** Changing the instruments in use is the admin's; listing them is anyone's signed in. */
const ADMIN_PATHS = new Set([
  "POST /api/instruments",
  "DELETE /api/instruments/:key",
  "POST /api/history/fetch",
]);
const isAdminPath = (path: string) =>
  path.startsWith("/api/auth/users") ||
  path.startsWith("/api/kite/") ||
  path.startsWith("/api/admin/");
const isAlertPath = (path: string) => path.startsWith("/api/alerts");

/** `user` has no alerts permission; `trader` has it; `admin` has both roles. */
type Role = "none" | "user" | "trader" | "admin";
type Access = "public" | "signed-in" | "alerts" | "admin";

function accessOfPath(key: string, path: string): Access {
  if (PUBLIC_PATHS.has(key)) return "public";
  if (ADMIN_PATHS.has(key) || isAdminPath(path)) return "admin";
  return isAlertPath(path) ? "alerts" : "signed-in";
}

function accessOfProcedure(path: string): Access {
  if (PUBLIC_PROCEDURES.has(path)) return "public";
  if (ADMIN_PROCEDURES.has(path)) return "admin";
  return ALERT_PROCEDURES.has(path) ? "alerts" : "signed-in";
}

interface Endpoint {
  name: string;
  access: Access;
  call: (client: HttpClient) => Promise<number>;
}

let server: TestServer;
const USER = { username: "viewer", password: "viewer-pass-1" };
const TRADER = { username: "trader", password: "trader-pass-1" };

/**
 * Status of a request whose body may never end (an SSE stream): the head's, unless the stream's
 * first event after "connected" is tRPC's serialized error (a subscription's guard answers
 * inside the stream, whose head is already 200); then the error's HTTP status. Every
 * subscription sends a first event at once, so this never waits on a quiet stream.
 */
async function streamStatus(url: string, cookie: string): Promise<number> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { cookie }, signal: abort.signal });
  try {
    if (!res.headers.get("content-type")?.startsWith("text/event-stream") || !res.body)
      return res.status;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const events = text
        .split("\n\n")
        .slice(0, -1)
        .map((e) => e.trim())
        .filter((e) => e !== "");
      const first = events.find((e) => !e.startsWith("event: connected"));
      if (first !== undefined) {
        if (!first.startsWith("event: serialized-error")) return res.status;
        const data = JSON.parse(first.slice(first.indexOf("data: ") + 6));
        return data.data?.httpStatus ?? 500;
      }
      const { value, done } = await reader.read();
      if (done) return res.status;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    abort.abort();
  }
}

function endpoints(): Endpoint[] {
  const rest: Endpoint[] = REST_ROUTES.map((route) => {
    const key = `${route.method} ${route.path}`;
    const access = accessOfPath(key, route.path);
    const path = route.path.startsWith("/api/executions/")
      ? route.path.replace(":id", "sw0000000000ff")
      : route.path.replace(":id", "999");
    return {
      name: `REST ${key}`,
      access,
      call: async (client) => {
        const res =
          route.method === "GET" || route.method === "DELETE"
            ? await client[route.method === "GET" ? "get" : "delete"](path)
            : await client.request(route.method, path, { body: {} });
        return res.status;
      },
    };
  });
  const procedures = Object.entries(appRouter._def.procedures).map(
    ([path, procedure]): Endpoint => {
      const type = (procedure as unknown as { _def: { type: string } })._def.type;
      const access = accessOfProcedure(path);
      return {
        name: `tRPC ${type} ${path}`,
        access,
        call: async (client) => {
          const url = `/api/trpc/${path}`;
          if (type === "subscription")
            return streamStatus(`${server.url}${url}`, client.cookieHeader);
          return (type === "query" ? await client.get(url) : await client.post(url, {})).status;
        },
      };
    },
  );
  // Logging out ends the walking session, so those go last.
  return [...rest, ...procedures].sort(
    (a, b) => Number(a.name.includes("logout")) - Number(b.name.includes("logout")),
  );
}

async function clientFor(role: Role): Promise<HttpClient> {
  const client = new HttpClient(server.url);
  if (role === "none") return client;
  const credentials = { admin: ADMIN, trader: TRADER, user: USER }[role];
  expect((await client.post("/api/auth/login", credentials)).status).toBe(200);
  return client;
}

function expected(access: Access, role: Role): "allowed" | 401 | 403 {
  if (access === "public") return "allowed";
  if (role === "none") return 401;
  if (access === "admin" && role !== "admin") return 403;
  if (access === "alerts" && role === "user") return 403;
  return "allowed";
}

const feed = manualFeed();
/** A fresh price, so /api/health answers 200 rather than its 503 for "no prices" (10 s silence). */
const freshPrice = () => feed.push({ source: "fx", key: "USDINR", price: 88.6, ts: Date.now() });

beforeAll(async () => {
  server = await startTestServer({ feed });
  const admin = await clientFor("admin");
  expect((await admin.post("/api/auth/users", USER)).status).toBe(200);
  expect((await admin.post("/api/auth/users", { ...TRADER, alerts_enabled: true })).status).toBe(
    200,
  );
});
afterAll(() => server.stop());

describe("every REST path and tRPC procedure enforces its guard", () => {
  it("knows every procedure it expects to be public, admin-only or alerts-only", () => {
    const all = Object.keys(appRouter._def.procedures);
    for (const name of [...PUBLIC_PROCEDURES, ...ADMIN_PROCEDURES, ...ALERT_PROCEDURES])
      expect(all).toContain(name);
  });

  for (const role of ["none", "user", "trader", "admin"] as const) {
    it(`as ${role === "none" ? "a visitor without a session" : `a signed-in ${role}`}`, async () => {
      const client = await clientFor(role);
      // Each walk gets its own fresh price: on a busy machine the walks before it can outlast
      // the silence window.
      freshPrice();
      const failures: string[] = [];
      for (const endpoint of endpoints()) {
        const status = await endpoint.call(client);
        const want = expected(endpoint.access, role);
        const ok =
          want === "allowed" ? status !== 401 && status !== 403 && status < 500 : status === want;
        if (!ok) failures.push(`${endpoint.name}: got ${status}, want ${want}`);
      }
      expect(failures).toEqual([]);
    });
  }
});
