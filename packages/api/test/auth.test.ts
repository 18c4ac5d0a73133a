import { statSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "@spreadwatch/db/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../src/auth/session.ts";
import { DATABASE_FILE } from "../src/server.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

let server: TestServer;
// A fresh server per test: most tests sign in as the admin (one session per user, and one test
// changes the admin's password), and they assert the admin's id and the start log.
beforeEach(async () => {
  server = await startTestServer({ feed: manualFeed() });
});
afterEach(() => server.stop());

async function signedIn(username: string = ADMIN.username, password: string = ADMIN.password) {
  const client = new HttpClient(server.url);
  const res = await client.post("/api/auth/login", { username, password });
  expect(res.status).toBe(200);
  return { client, res };
}

async function createUser(admin: HttpClient, username: string, password: string, extra = {}) {
  const res = await admin.post("/api/auth/users", { username, password, ...extra });
  expect(res.status).toBe(200);
  return res.body.user;
}

describe("login", () => {
  it("returns the user and sets an HttpOnly, SameSite=Lax session cookie holding no readable data", async () => {
    const { res } = await signedIn("ADMIN");
    expect(res.body).toEqual({
      user: { id: 1, username: "admin", is_admin: true, alerts_enabled: true },
      another_session_logged_out: false,
    });
    const cookie = String(res.headers["set-cookie"]);
    expect(cookie).toContain(`${SESSION_COOKIE}=Fe26.2*`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it("rejects a wrong password or an unknown user with the same 401 sentence", async () => {
    const client = new HttpClient(server.url);
    const wrong = await client.post("/api/auth/login", {
      username: "admin",
      password: "nope-nope",
    });
    const unknown = await client.post("/api/auth/login", {
      username: "ghost",
      password: "nope-nope",
    });
    expect(wrong).toMatchObject({ status: 401, body: { error: "Invalid username or password" } });
    expect(unknown).toMatchObject({ status: 401, body: { error: "Invalid username or password" } });
    expect((await client.get("/api/auth/status")).body).toEqual({ status: "unauthenticated" });
  });

  it("status and heartbeat follow the session", async () => {
    const { client } = await signedIn();
    expect((await client.get("/api/auth/status")).body).toEqual({
      status: "authenticated",
      user: { id: 1, username: "admin", is_admin: true, alerts_enabled: true },
    });
    // A live beat names the user as they are now, so an open page sees a permission change.
    expect((await client.get("/api/auth/heartbeat")).body).toEqual({
      valid: true,
      user: { id: 1, username: "admin", is_admin: true, alerts_enabled: true },
    });
    expect((await client.post("/api/auth/logout")).body).toEqual({ status: "success" });
    expect((await client.get("/api/auth/status")).body).toEqual({ status: "unauthenticated" });
    expect((await client.get("/api/auth/heartbeat")).body).toEqual({
      valid: false,
      reason: "not_authenticated",
    });
  });

  it("a logged-out cookie replayed by hand is refused", async () => {
    const { client } = await signedIn();
    const stolen = new HttpClient(server.url);
    // Copy the cookie before logout, as an attacker who captured it would.
    const header = client.cookieHeader;
    await client.post("/api/auth/logout");
    const res = await fetch(`${server.url}/api/auth/users`, { headers: { cookie: header } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Please log in." });
    expect((await stolen.get("/api/auth/status")).body.status).toBe("unauthenticated");
  });
});

describe("one active session per user", () => {
  it("a second login ends the first; the first browser is told why on every path", async () => {
    const first = await signedIn();
    expect(first.res.body.another_session_logged_out).toBe(false);
    const second = await signedIn();
    expect(second.res.body.another_session_logged_out).toBe(true);

    const message =
      "Your session was terminated because you logged in from another device or browser. For security, we only allow one active session at a time.";
    const rest = await first.client.get("/api/auth/users");
    expect(rest).toMatchObject({
      status: 401,
      body: { session_expired: true, reason: "replaced", error: message },
    });
    const trpc = await first.client.get("/api/trpc/users.list");
    expect(trpc.status).toBe(401);
    expect(trpc.body.error.message).toBe(message);
    expect(trpc.body.error.data).toMatchObject({
      session_expired: true,
      reason: "replaced",
      httpStatus: 401,
    });
    expect((await first.client.get("/api/auth/heartbeat")).body).toEqual({
      valid: false,
      reason: "replaced",
    });
    expect((await first.client.get("/api/auth/status")).body).toEqual({
      status: "session_expired",
      reason: "replaced",
    });

    expect((await second.client.get("/api/auth/users")).status).toBe(200);
  });

  it("sessions of different users do not end each other", async () => {
    const admin = await signedIn();
    await createUser(admin.client, "trader", "trader-pass-1");
    const trader = await signedIn("trader", "trader-pass-1");
    expect(trader.res.body.another_session_logged_out).toBe(false);
    expect((await admin.client.get("/api/auth/heartbeat")).body).toMatchObject({ valid: true });
  });

  it("a session idle longer than the limit is ended as expired", async () => {
    const { client } = await signedIn();
    const eightDaysAgo = Date.now() - 8 * 24 * 60 * 60 * 1000;
    // A second connection to the same file, as an operator's sqlite3 shell would be.
    const direct = openDatabase(join(server.dataDir, DATABASE_FILE));
    direct.sqlite.prepare("UPDATE sessions SET last_seen_at = ?").run(eightDaysAgo);
    direct.close();
    expect((await client.get("/api/auth/heartbeat")).body).toEqual({
      valid: false,
      reason: "expired",
    });
    const res = await client.get("/api/auth/users");
    expect(res).toMatchObject({ status: 401, body: { session_expired: true, reason: "expired" } });
  });

  it("survives a server restart (secret and sessions are on disk)", async () => {
    const { client } = await signedIn();
    const secret = statSync(join(server.dataDir, "session-secret"));
    expect(secret.mode & 0o777).toBe(0o600);
    server = await server.restart();
    const again = new HttpClient(server.url);
    // The same cookie, presented to the new process.
    const res = await fetch(`${server.url}/api/auth/status`, {
      headers: { cookie: client.cookieHeader },
    });
    expect(((await res.json()) as { status: string }).status).toBe("authenticated");
    expect((await again.get("/api/auth/status")).body.status).toBe("unauthenticated");
  });
});

describe("change password", () => {
  it("checks the current password, keeps this session, ends the others, and only the new password works", async () => {
    const admin = await signedIn();
    await createUser(admin.client, "trader", "trader-pass-1");
    const phone = await signedIn("trader", "trader-pass-1");
    const desk = new HttpClient(server.url);

    const wrong = await phone.client.post("/api/auth/change-password", {
      currentPassword: "not-it-at-all",
      newPassword: "trader-pass-2",
    });
    expect(wrong).toMatchObject({ status: 400, body: { error: "Current password is incorrect" } });
    const short = await phone.client.post("/api/auth/change-password", {
      currentPassword: "trader-pass-1",
      newPassword: "short",
    });
    expect(short).toMatchObject({
      status: 400,
      body: { error: "New password must be at least 8 characters" },
    });

    const ok = await phone.client.post("/api/auth/change-password", {
      currentPassword: "trader-pass-1",
      newPassword: "trader-pass-2",
    });
    expect(ok).toMatchObject({
      status: 200,
      body: { status: "success", message: "Password updated successfully" },
    });
    expect((await phone.client.get("/api/auth/heartbeat")).body).toMatchObject({ valid: true });

    const old = await desk.post("/api/auth/login", {
      username: "trader",
      password: "trader-pass-1",
    });
    expect(old.status).toBe(401);
    const fresh = await desk.post("/api/auth/login", {
      username: "trader",
      password: "trader-pass-2",
    });
    expect(fresh.status).toBe(200);
  });
});

describe("change password rotates the session cookie", () => {
  it("the session that changed it goes on under a new cookie; a copy of the old one is dead", async () => {
    const { client } = await signedIn();
    const before = client.cookieHeader;
    const ok = await client.post("/api/auth/change-password", {
      currentPassword: ADMIN.password,
      newPassword: "admin-password-2",
    });
    expect(ok.status).toBe(200);
    expect(client.cookieHeader).toMatch(new RegExp(`^${SESSION_COOKIE}=Fe26\\.2\\*`));
    expect(client.cookieHeader).not.toBe(before);
    expect((await client.get("/api/auth/heartbeat")).body).toMatchObject({ valid: true });
    const stolen = await fetch(`${server.url}/api/auth/heartbeat`, { headers: { cookie: before } });
    expect(await stolen.json()).toMatchObject({ valid: false });
    const alerts = await fetch(`${server.url}/api/alerts`, { headers: { cookie: before } });
    expect(alerts.status).toBe(401);
  });
});

describe("first admin", () => {
  it("is created with a random password printed once, boxed, when no user exists", async () => {
    const fresh = await startTestServer({ feed: manualFeed(), env: { ADMIN_PASSWORD: "" } });
    try {
      const log = fresh.startLog.join("\n");
      expect(log).toMatch(/^┌─+┐$/m);
      const password = /password: (\S+)/.exec(log)?.[1] as string;
      expect(password.length).toBeGreaterThanOrEqual(16);
      const client = new HttpClient(fresh.url);
      const res = await client.post("/api/auth/login", { username: "admin", password });
      expect(res.body.user).toMatchObject({ username: "admin", is_admin: true });
      const again = await fresh.restart();
      expect(again.startLog).toEqual([]);
      await again.stop();
    } finally {
      await fresh.stop().catch(() => undefined);
    }
  });

  it("takes ADMIN_USERNAME / ADMIN_PASSWORD and never prints the password", async () => {
    expect(server.startLog.join("\n")).not.toContain(ADMIN.password);
    expect(server.startLog.join("\n")).toContain('"admin"');
  });
});

describe("password hashing cost", () => {
  const storedHash = (dataDir: string, username: string) => {
    const direct = openDatabase(join(dataDir, DATABASE_FILE));
    try {
      const row = direct.sqlite
        .prepare("SELECT password_hash AS hash FROM users WHERE username = ?")
        .get(username) as { hash: string };
      return row.hash;
    } finally {
      direct.close();
    }
  };

  it("hashes at scrypt's N = 2^15 unless PASSWORD_HASH_COST says otherwise", async () => {
    // The tests' own servers hash at the lowest cost (test-env.ts); this one starts as shipped.
    const shipped = await startTestServer({ feed: manualFeed(), env: { PASSWORD_HASH_COST: "" } });
    try {
      expect(storedHash(shipped.dataDir, ADMIN.username)).toMatch(/^scrypt\$32768\$8\$1\$/);
      const admin = new HttpClient(shipped.url);
      expect((await admin.post("/api/auth/login", ADMIN)).status).toBe(200);
      await createUser(admin, "desk", "desk-password-1");
      expect(storedHash(shipped.dataDir, "desk")).toMatch(/^scrypt\$32768\$8\$1\$/);
    } finally {
      await shipped.stop();
    }
  });

  it("keeps each password's own cost: a raised cost applies to passwords set from then on", async () => {
    expect(storedHash(server.dataDir, ADMIN.username)).toMatch(/^scrypt\$1024\$8\$1\$/);
    const raised = await server.restart({ env: { PASSWORD_HASH_COST: "12" }, feed: manualFeed() });
    server = raised;
    const { client } = await signedIn();
    const changed = await client.post("/api/auth/change-password", {
      currentPassword: ADMIN.password,
      newPassword: "a-new-password-2",
    });
    expect(changed.status).toBe(200);
    expect(storedHash(raised.dataDir, ADMIN.username)).toMatch(/^scrypt\$4096\$8\$1\$/);
    expect((await signedIn(ADMIN.username, "a-new-password-2")).res.status).toBe(200);
  });
});
