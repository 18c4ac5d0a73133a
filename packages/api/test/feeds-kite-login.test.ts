import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { START_SCRIPT } from "../../../scripts/production-build.mjs";
import {
  KITE_SESSION_KEY,
  kiteSessionExpiry,
  SESSION_FILE,
} from "../src/feeds/providers/kite/session.ts";
import { FakeKite, KITE_KEY, listGoldFuture } from "./fakes/fake-kite.ts";
import { goldFebQuote } from "./fakes/kite-packets.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";
import { processEnv } from "./test-env.ts";

let kite: FakeKite;
let server: TestServer | undefined;

async function admin(s: TestServer): Promise<HttpClient> {
  const client = new HttpClient(s.url);
  expect((await client.post("/api/auth/login", ADMIN)).status).toBe(200);
  return client;
}

/** Starts the login as the admin's browser does; returns the `state` Kite will hand back. */
async function startLogin(client: HttpClient): Promise<string> {
  const login = await client.get("/api/kite/login");
  expect(login.status).toBe(302);
  const redirectParams = new URL(login.headers.location as string).searchParams.get(
    "redirect_params",
  );
  const state = new URLSearchParams(redirectParams ?? "").get("state");
  expect(state).toMatch(/^[\w-]{32}$/);
  return state as string;
}

/** The session in the server's database, where every instance reads it. */
// biome-ignore lint/suspicious/noExplicitAny: the stored JSON is inspected field by field
function storedSession(s: TestServer): Promise<any> {
  return s.services.store.keyValues.get(KITE_SESSION_KEY);
}

// A server per test (each starts its own with the env it needs): the Kite session is one per
// server, stored in its database.
beforeEach(async () => {
  kite = await new FakeKite().start();
  kite.requestTokens.set("req-good", "access-of-the-day");
});

afterEach(async () => {
  await server?.stop();
  server = undefined;
  await kite.stop();
});

describe("Kite sessions end at 06:00 IST", () => {
  it.each([
    ["2026-01-05T03:00:00Z", "2026-01-06T00:30:00.000Z"], // 08:30 IST → next morning
    ["2026-01-05T00:00:00Z", "2026-01-05T00:30:00.000Z"], // 05:30 IST → this morning
    ["2026-01-05T00:30:00Z", "2026-01-06T00:30:00.000Z"], // 06:00 IST sharp → next morning
  ])("a login at %s expires at %s", (at, expiry) => {
    expect(new Date(kiteSessionExpiry(Date.parse(at))).toISOString()).toBe(expiry);
  });
});

describe("the admin's Kite login", () => {
  it("redirects to Kite's login with the app's key and a state, and stores the token from the callback", async () => {
    server = await startTestServer({ feed: manualFeed(), env: kite.env() });
    const client = await admin(server);
    const login = await client.get("/api/kite/login");
    expect(login.status).toBe(302);
    const location = new URL(login.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(`${kite.url}/connect/login`);
    expect(location.searchParams.get("v")).toBe("3");
    expect(location.searchParams.get("api_key")).toBe(KITE_KEY);
    const state = new URLSearchParams(location.searchParams.get("redirect_params") ?? "").get(
      "state",
    );

    const callback = await client.get(
      `/api/kite/callback?action=login&type=login&status=success&request_token=req-good&state=${state}`,
    );
    expect(callback.status).toBe(302);
    expect(callback.headers.location).toBe("/admin?kite=connected");
    expect(kite.exchanges).toEqual([
      {
        api_key: KITE_KEY,
        request_token: "req-good",
        // sha256("kite-test-key" + "req-good" + "kite-test-secret")
        checksum: "b11cb8f571559865bc18ce9205e4b0a719188cdb8255bfd437cface51fa3c44a",
      },
    ]);
    const session = await storedSession(server);
    expect(session).toMatchObject({ accessToken: "access-of-the-day", userId: "AB1234" });
    expect(session.expiresAt).toBe(kiteSessionExpiry(session.savedAt));

    const status = await client.get("/api/kite/status");
    expect(status.body).toEqual({
      configured: true,
      session: "valid",
      userId: "AB1234",
      savedAt: session.savedAt,
      expiresAt: session.expiresAt,
    });
    // The token is the server's business only.
    expect(JSON.stringify(status.body)).not.toContain("access-of-the-day");
    expect(JSON.stringify((await client.get("/api/health")).body)).not.toContain(
      "access-of-the-day",
    );
  });

  it("shows Kite's refusal and stores nothing", async () => {
    server = await startTestServer({ feed: manualFeed(), env: kite.env() });
    const client = await admin(server);
    const res = await client.get(
      `/api/kite/callback?request_token=req-stale&state=${await startLogin(client)}`,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Kite refused the login: Token is invalid or has expired." });
    expect(await storedSession(server)).toBeUndefined();
    const missing = await client.get(
      `/api/kite/callback?status=cancelled&state=${await startLogin(client)}`,
    );
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/request_token is missing/);
  });

  it("says so when Kite is not configured", async () => {
    server = await startTestServer({ feed: manualFeed() });
    const client = await admin(server);
    const res = await client.get("/api/kite/login");
    expect(res.status).toBe(412);
    expect(res.body.error).toMatch(/KITE_API_KEY and KITE_API_SECRET/);
    expect((await client.get("/api/kite/status")).body).toMatchObject({
      configured: false,
      session: "missing",
    });
  });

  it("refuses a callback this server did not start or a reused state, changing nothing", async () => {
    server = await startTestServer({ feed: manualFeed(), env: kite.env() });
    const client = await admin(server);
    const refused = async (query: string) => {
      const res = await client.get(`/api/kite/callback?${query}`);
      expect(res.status).toBe(400);
      expect(res.headers["content-type"]).toMatch(/application\/json/);
      expect(res.body.error).toMatch(/start again from \/api\/kite\/login/);
    };
    // A link planted by another site: a good request token, no state or a made-up one.
    await refused("request_token=req-good");
    await refused("request_token=req-good&state=made-up-by-someone-else-0123456789");

    const state = await startLogin(client);
    const used = await client.get(`/api/kite/callback?request_token=req-stale&state=${state}`);
    expect(used.body.error).toMatch(/Kite refused the login/);
    await refused(`request_token=req-good&state=${state}`);
    expect(kite.exchanges.map((e) => e.request_token)).toEqual(["req-stale"]);
    expect(await storedSession(server)).toBeUndefined();
  });

  it("starts the Kite provider of a running composite feed once the login stored a token", async () => {
    listGoldFuture(kite);
    const file = join(mkdtempSync(join(tmpdir(), "spreadwatch-md-")), "market-data.json");
    writeFileSync(
      file,
      JSON.stringify({
        providers: {
          kite: { type: "kite", keys: ["GOLD"], hours: "always", tokenCheckSeconds: 0.03 },
        },
      }),
    );
    server = await startTestServer({
      env: { ...kite.env(), FEED: "composite", MARKET_DATA_CONFIG: file },
    });
    const client = await admin(server);
    const before = await client.get("/api/health");
    expect(before.status).toBe(503);
    expect(before.body.providers[0]).toMatchObject({
      name: "kite",
      state: "not_configured",
      lastError: expect.stringMatching(/no Kite access token/),
    });

    await client.get(`/api/kite/callback?request_token=req-good&state=${await startLogin(client)}`);
    await kite.until(() => (kite.latest?.messages.length ?? 0) >= 2, "the subscription");
    kite.send(goldFebQuote());
    const prices = await eventually(
      () => client.get("/api/prices"),
      (r) => r.body.mcx.GOLD !== undefined,
      "GOLD in /api/prices",
    );
    expect(prices.body.mcx.GOLD).toMatchObject({ bid: 76500, ask: 76502 });
    const after = await client.get("/api/health");
    expect(after.status).toBe(200);
    expect(after.body.providers[0]).toMatchObject({
      state: "live",
      contracts: { GOLD: "GOLD99DECFUT (expires 2099-12-05)" },
    });
  });
});

describe("the Kite session file of earlier releases", () => {
  const session = (token: string, savedAt: number) => ({
    accessToken: token,
    userId: "AB1234",
    savedAt,
    expiresAt: kiteSessionExpiry(savedAt),
  });

  it("is imported into the database once, then only the database is used", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "spreadwatch-kite-file-"));
    const file = join(dataDir, SESSION_FILE);
    writeFileSync(file, JSON.stringify(session("from-the-file", Date.now() - 1_000)));
    server = await startTestServer({ dataDir, feed: manualFeed(), env: kite.env() });
    expect(await storedSession(server)).toMatchObject({ accessToken: "from-the-file" });
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.imported`)).toBe(true);

    // A later login wins; an old file put back is not allowed to override it.
    const client = await admin(server);
    await client.get(`/api/kite/callback?request_token=req-good&state=${await startLogin(client)}`);
    writeFileSync(file, JSON.stringify(session("stale-file", Date.now() - 60_000)));
    server = await server.restart({ env: kite.env(), feed: manualFeed() });
    expect(await storedSession(server)).toMatchObject({ accessToken: "access-of-the-day" });
    expect(existsSync(file)).toBe(false);
  });

  it("leaves an unreadable file alone and stores nothing", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "spreadwatch-kite-file-"));
    writeFileSync(join(dataDir, SESSION_FILE), "{not json");
    server = await startTestServer({ dataDir, feed: manualFeed(), env: kite.env() });
    expect(await storedSession(server)).toBeUndefined();
    expect(readFileSync(join(dataDir, SESSION_FILE), "utf8")).toBe("{not json");
  });
});

describe("the kite CLI", () => {
  function cli(
    dataDir: string,
    ...args: string[]
  ): Promise<{ code: number | null; out: string; err: string }> {
    const child = spawn(process.execPath, [START_SCRIPT, "kite", ...args], {
      env: { ...processEnv(), DATA_DIR: dataDir, ...kite.env() },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      err += d;
    });
    return new Promise((resolve) =>
      child.on("exit", (code) => resolve({ code, out, err: err.trim() })),
    );
  }

  it("prints the login URL, stores a session from the redirect URL, and shows it", async () => {
    server = await startTestServer({ feed: manualFeed() });
    const { dataDir } = server;
    expect(await cli(dataDir, "status")).toMatchObject({
      code: 0,
      out: "No Kite session stored.\n",
    });
    expect((await cli(dataDir, "login-url")).out).toBe(
      `${kite.url}/connect/login?v=3&api_key=${KITE_KEY}\n`,
    );
    const stored = await cli(
      dataDir,
      "session",
      "https://myserver.example/api/kite/callback?action=login&request_token=req-good&status=success",
    );
    expect(stored.code).toBe(0);
    expect(stored.out).toMatch(
      /^Stored the Kite session of AB1234, valid until \d{4}-\d{2}-\d{2}T00:30:00.000Z\.\n$/,
    );
    expect((await storedSession(server)).accessToken).toBe("access-of-the-day");
    expect((await cli(dataDir, "status")).out).toMatch(/^Kite session of AB1234: valid until /);
  });

  it("explains a refused token in one line and exits 1", async () => {
    server = await startTestServer({ feed: manualFeed() });
    expect(await cli(server.dataDir, "session", "req-stale")).toEqual({
      code: 1,
      out: "",
      err: "Kite refused the login: Token is invalid or has expired.",
    });
  });
});
