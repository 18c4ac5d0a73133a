import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TRPCError } from "@trpc/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ErrorWithFields } from "../src/errors.ts";
import { log } from "../src/log.ts";
import { REST_ROUTES } from "../src/rest/routes.ts";
import { HttpClient } from "./http-client.ts";
import { manualFeed, startTestServer, type TestServer } from "./server.ts";

const THEME_SCRIPT = "document.documentElement.dataset.theme = 'dark';";
let server: TestServer;
let client: HttpClient;

beforeAll(async () => {
  const webDist = mkdtempSync(join(tmpdir(), "spreadwatch-dist-"));
  writeFileSync(
    join(webDist, "index.html"),
    `<!doctype html><title>Spreadwatch</title><script>${THEME_SCRIPT}</script><script type="module" src="/assets/a.js"></script>`,
  );
  server = await startTestServer({ feed: manualFeed(), webDist });
  client = new HttpClient(server.url);
});
afterAll(() => server.stop());
afterEach(() => vi.restoreAllMocks());

describe("security headers on every response", () => {
  const expectSecure = (headers: Headers | Record<string, unknown>) => {
    const get = (name: string) =>
      headers instanceof Headers ? headers.get(name) : (headers[name] as string | undefined);
    const csp = get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(get("x-content-type-options")).toBe("nosniff");
    expect(get("x-frame-options")).toBe("DENY");
    expect(get("referrer-policy")).toBe("no-referrer");
    return csp;
  };

  it.each([
    ["the web app", "/"],
    ["a client-side route", "/admin"],
    ["a REST answer", "/api/prices"],
    ["a tRPC answer", "/api/trpc/market.prices"],
    ["a REST error", "/api/nope"],
  ])("%s", async (_name, path) => {
    expectSecure((await fetch(`${server.url}${path}`)).headers);
  });

  it("the live stream, which writes its own head", async () => {
    const abort = new AbortController();
    const res = await fetch(`${server.url}/api/trpc/market.onSnapshot`, { signal: abort.signal });
    expectSecure(res.headers);
    abort.abort();
  });

  it("the CSP allows index.html's inline script by its hash, and no other", async () => {
    const csp = expectSecure((await fetch(`${server.url}/`)).headers);
    const hash = createHash("sha256").update(THEME_SCRIPT).digest("base64");
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}'`);
  });
});

describe("every error is JSON { error }", () => {
  it("404 for an unknown API path, 405 with Allow for a known path and another method", async () => {
    const missing = await client.get("/api/nope");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "No API endpoint at /api/nope" });
    const wrongMethod = await client.request("PATCH", "/api/alerts", { body: {} });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe("GET, POST");
    expect(wrongMethod.body).toEqual({ error: "PATCH is not allowed on /api/alerts" });
  });

  it("a 500 says nothing of its cause, and logs it once with method, path and status", async () => {
    vi.spyOn(server.services.hub, "snapshot").mockImplementation(() => {
      throw new Error("secret internals");
    });
    // Quiet: the line is asserted here, not printed.
    const error = vi.spyOn(log, "error").mockImplementation(() => undefined);
    const rest = await client.get("/api/prices");
    expect(rest.status).toBe(500);
    expect(rest.body).toEqual({ error: "Internal server error" });
    const trpc = await client.get("/api/trpc/market.prices");
    expect(trpc.status).toBe(500);
    expect(JSON.stringify(trpc.body)).not.toContain("secret internals");
    expect(error).toHaveBeenCalledTimes(2);
    expect(error.mock.calls[0]?.[0]).toMatchObject({
      method: "GET",
      path: "/api/prices",
      status: 500,
      err: expect.objectContaining({ message: "secret internals" }),
    });
    expect(error.mock.calls[1]?.[0]).toMatchObject({
      path: "/api/trpc/market.prices",
      status: 500,
    });
  });

  it("a client error is one log line with its status and no stack", async () => {
    const info = vi.spyOn(log, "info");
    const error = vi.spyOn(log, "error");
    expect((await client.get("/api/alerts")).status).toBe(401);
    expect(info).toHaveBeenCalledTimes(1);
    expect(info.mock.calls[0]?.[0]).toEqual({ method: "GET", path: "/api/alerts", status: 401 });
    expect(error).not.toHaveBeenCalled();
  });

  it("an error asking the client to wait sets Retry-After, over REST and tRPC", async () => {
    vi.spyOn(server.services.hub, "snapshot").mockImplementation(() => {
      throw new TRPCError({
        code: "TOO_MANY_REQUESTS",
        message: "Slow down.",
        cause: new ErrorWithFields("Slow down.", { retryAfterSeconds: 41.2 }),
      });
    });
    const rest = await client.get("/api/prices");
    expect(rest.status).toBe(429);
    expect(rest.headers["retry-after"]).toBe("42");
    expect(rest.body).toMatchObject({ error: "Slow down." });
    const trpc = await client.get("/api/trpc/market.prices");
    expect(trpc.status).toBe(429);
    expect(trpc.headers["retry-after"]).toBe("42");
    expect(trpc.body.error.message).toBe("Slow down.");
  });

  // tRPC refuses these before any procedure runs; its body is JSON and must say so, or a client
  // that trusts Content-Type (or nosniff) cannot read the reason.
  const LOGIN = JSON.stringify({ 0: { username: "a", password: "b" } });
  it.each([
    ["a batch mixing a mutation and a query", "POST", "auth.login,users.list?batch=1", LOGIN, 400],
    ["the same batch over GET", "GET", "auth.login,users.list?batch=1", undefined, 400],
    [
      "a batch mixing a subscription",
      "GET",
      "market.onSnapshot,market.prices?batch=1",
      undefined,
      400,
    ],
    ["a body that is not JSON", "POST", "auth.login", "{", 400],
    ["a batch body that is not an object", "POST", "auth.login?batch=1", "[1]", 400],
    ["a mutation without a content type", "DELETE", "auth.logout", undefined, 415],
    ["OPTIONS on a procedure", "OPTIONS", "market.prices", undefined, 415],
    ["a query over POST", "POST", "users.list", "{}", 405],
    ["an unknown procedure", "GET", "nope", undefined, 404],
  ])(
    "tRPC: %s gets a JSON error labelled application/json",
    async (_name, method, path, body, status) => {
      const res = await fetch(`${server.url}/api/trpc/${path}`, {
        method,
        ...(body !== undefined && { body, headers: { "content-type": "application/json" } }),
      });
      expect(res.status).toBe(status);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const json = await res.json();
      const first = Array.isArray(json) ? json[0] : json;
      expect(first.error.message).toEqual(expect.any(String));
    },
  );
});

describe("REST passes Idempotency-Key to the procedures that take it", () => {
  it.each([
    ["/api/alerts", "alerts"],
    ["/api/auth/users", "users"],
  ])("POST %s", async (path, router) => {
    const route = REST_ROUTES.find((r) => r.method === "POST" && r.path === path);
    const received: unknown[] = [];
    const caller = { [router]: { create: async (input: unknown) => received.push(input) } };
    await route?.call(caller as never, {
      params: {},
      query: new URLSearchParams(),
      headers: new Headers({ "idempotency-key": "form-42" }),
      body: { threshold: 1 },
    });
    expect(received).toEqual([{ threshold: 1, idempotencyKey: "form-42" }]);
  });
});
