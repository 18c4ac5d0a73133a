import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SESSION_COOKIE } from "../src/auth/session.ts";
import { log } from "../src/log.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

let server: TestServer;
let validSeal: string;

beforeAll(async () => {
  server = await startTestServer({ feed: manualFeed() });
  const admin = new HttpClient(server.url);
  expect((await admin.post("/api/auth/login", ADMIN)).status).toBe(200);
  validSeal = decodeURIComponent(admin.cookieHeader.split("=").slice(1).join("="));
});
afterAll(() => server.stop());
afterEach(() => vi.restoreAllMocks());

/** Iron seals are `Fe26.2*id*salt*iv*data*expiration*hmacSalt*hmac~2`. */
function withField(seal: string, index: number, value: string): string {
  const parts = seal.split("*");
  parts[index] = value;
  return parts.join("*");
}

const TAMPERED: Array<[string, () => string]> = [
  ["a seal of garbage fields", () => "Fe26.2*1*a*b*c*x*d*e"],
  ["a negative expiration", () => withField(validSeal, 5, "-5")],
  ["a non-numeric expiration", () => withField(validSeal, 5, "soon")],
  ["a flipped hmac", () => withField(validSeal, 7, "AAAA~2")],
  ["an unknown password id", () => withField(validSeal, 1, "9")],
  ["too few fields", () => "Fe26.2*1*a"],
  ["bad percent-encoding", () => "%E0%A4%A"],
  ["plain text", () => "hello"],
];

async function asVisitor(cookie: string) {
  const client = new HttpClient(server.url);
  const headers = { cookie: `${SESSION_COOKIE}=${cookie}` };
  return {
    status: await client.request("GET", "/api/auth/status", { headers }),
    alerts: await client.request("GET", "/api/alerts", { headers }),
    trpcStatus: await client.request("GET", "/api/trpc/auth.status", { headers }),
    trpcAlerts: await client.request("GET", "/api/trpc/alerts.list", { headers }),
    prices: await client.request("GET", "/api/prices", { headers }),
    login: await client.request("POST", "/api/auth/login", { body: ADMIN, headers }),
  };
}

describe("a malformed or tampered session cookie is simply signed out", () => {
  it.each(TAMPERED)("%s: never a 500, never an internal message", async (_name, make) => {
    const error = vi.spyOn(log, "error");
    const r = await asVisitor(make());
    expect(r.status.status).toBe(200);
    expect(r.status.body).toEqual({ status: "unauthenticated" });
    expect(r.alerts.status).toBe(401);
    expect(r.alerts.body).toEqual({ error: "Please log in." });
    expect(r.trpcStatus.status).toBe(200);
    expect(r.trpcStatus.body.result.data.status).toBe("unauthenticated");
    expect(r.trpcAlerts.status).toBe(401);
    expect(r.trpcAlerts.body.error.message).toBe("Please log in.");
    expect(r.prices.status).toBe(200);
    // Signing in over a bad cookie replaces it.
    expect(r.login.status).toBe(200);
    expect(error).not.toHaveBeenCalled();
  });

  it("the browser is told to drop an unreadable cookie", async () => {
    const client = new HttpClient(server.url);
    const res = await client.request("GET", "/api/auth/status", {
      headers: { cookie: `${SESSION_COOKIE}=Fe26.2*1*a*b*c*x*d*e` },
    });
    const setCookie = ([] as string[]).concat(res.headers["set-cookie"] ?? []);
    expect(setCookie.some((c) => c.startsWith(`${SESSION_COOKIE}=;`) && /Max-Age=0/.test(c))).toBe(
      true,
    );
  });

  it("a hundred tampered requests log at most one line about the cookie", async () => {
    const warn = vi.spyOn(log, "warn");
    const client = new HttpClient(server.url);
    const headers = { cookie: `${SESSION_COOKIE}=Fe26.2*1*a*b*c*x*d*e` };
    for (let i = 0; i < 100; i++) {
      const path = i % 2 ? "/api/auth/status" : "/api/trpc/auth.heartbeat";
      expect((await client.request("GET", path, { headers })).status).toBe(200);
    }
    const aboutCookies = warn.mock.calls.filter((call) => /session cookie/.test(String(call[1])));
    expect(aboutCookies.length).toBeLessThanOrEqual(1);
  });
});
