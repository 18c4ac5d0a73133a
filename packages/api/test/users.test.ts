import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

let server: TestServer;
let admin: HttpClient;

// A fresh server per test: the tests assert user ids and the whole user list.
beforeEach(async () => {
  server = await startTestServer({ feed: manualFeed() });
  admin = new HttpClient(server.url);
  expect((await admin.post("/api/auth/login", ADMIN)).status).toBe(200);
});
afterEach(() => server.stop());

const listUsers = async () => (await admin.get("/api/auth/users")).body.users;

describe("admin user management", () => {
  it("creates, lists, toggles alerts and deletes a user, with the spec's messages", async () => {
    const created = await admin.post("/api/auth/users", {
      username: "Trader_1",
      password: "trader-pass-1",
      is_admin: false,
      alerts_enabled: true,
    });
    expect(created.body).toEqual({
      status: "success",
      message: "User created successfully",
      user: { id: 2, username: "Trader_1", is_admin: false, alerts_enabled: true },
    });
    expect(await listUsers()).toEqual([
      { id: 1, username: "admin", is_admin: true, alerts_enabled: true },
      { id: 2, username: "Trader_1", is_admin: false, alerts_enabled: true },
    ]);

    const toggled = await admin.put("/api/auth/users/2/permissions", {
      permission: "alerts_enabled",
      value: false,
    });
    expect(toggled.body).toEqual({
      status: "success",
      message: "User permission updated successfully",
    });
    expect((await listUsers())[1].alerts_enabled).toBe(false);

    const deleted = await admin.delete("/api/auth/users/2");
    expect(deleted.body).toEqual({ status: "success", message: "User deleted successfully" });
    expect((await listUsers()).map((u: { username: string }) => u.username)).toEqual(["admin"]);
  });

  it("never sends a password or its hash", async () => {
    await admin.post("/api/auth/users", { username: "bob", password: "bob-password" });
    const text = JSON.stringify([
      await admin.get("/api/auth/users"),
      await admin.get("/api/trpc/users.list"),
    ]);
    expect(text).not.toMatch(/password|scrypt/i);
  });

  it("usernames are unique without regard to case", async () => {
    await admin.post("/api/auth/users", { username: "bob", password: "bob-password" });
    const dup = await admin.post("/api/auth/users", { username: "BOB", password: "bob-password" });
    expect(dup).toMatchObject({ status: 409, body: { error: 'Username "BOB" already exists' } });
  });

  it("an admin cannot delete their own account, whatever the client does", async () => {
    const res = await admin.delete("/api/auth/users/1");
    expect(res).toMatchObject({
      status: 400,
      body: { error: "You cannot delete your own account." },
    });
    expect(await listUsers()).toHaveLength(1);
  });

  it("a permission the admin grants reaches the user's next heartbeat, session intact", async () => {
    await admin.post("/api/auth/users", { username: "bob", password: "bob-password" });
    const bob = new HttpClient(server.url);
    await bob.post("/api/auth/login", { username: "bob", password: "bob-password" });
    const user = { id: 2, username: "bob", is_admin: false };
    expect((await bob.get("/api/auth/heartbeat")).body).toEqual({
      valid: true,
      user: { ...user, alerts_enabled: false },
    });
    await admin.put("/api/auth/users/2/permissions", { permission: "alerts_enabled", value: true });
    expect((await bob.get("/api/auth/heartbeat")).body).toEqual({
      valid: true,
      user: { ...user, alerts_enabled: true },
    });
    expect((await bob.get("/api/alerts")).status).toBe(200);
  });

  it("deleting a user ends their session, and their browser is told why", async () => {
    await admin.post("/api/auth/users", { username: "bob", password: "bob-password" });
    const bob = new HttpClient(server.url);
    await bob.post("/api/auth/login", { username: "bob", password: "bob-password" });
    await admin.delete("/api/auth/users/2");
    expect((await bob.get("/api/auth/heartbeat")).body).toEqual({
      valid: false,
      reason: "user_deleted",
    });
    expect(
      (await bob.post("/api/auth/login", { username: "bob", password: "bob-password" })).status,
    ).toBe(401);
  });
});

describe("bad payloads get a 4xx with { error } and change nothing", () => {
  const huge = "x".repeat(70 * 1024);
  const cases: Array<
    [string, () => Promise<{ status: number; body: unknown }>, number, string | RegExp]
  > = [
    [
      "missing username",
      () => admin.post("/api/auth/users", { password: "longenough" }),
      400,
      "Username is required",
    ],
    [
      "missing password",
      () => admin.post("/api/auth/users", { username: "x" }),
      400,
      "Password is required",
    ],
    [
      "short password",
      () => admin.post("/api/auth/users", { username: "x", password: "short" }),
      400,
      "Password must be at least 8 characters",
    ],
    [
      "bad username",
      () => admin.post("/api/auth/users", { username: "a b", password: "longenough" }),
      400,
      /letters, digits/,
    ],
    [
      "33-char username",
      () => admin.post("/api/auth/users", { username: "a".repeat(33), password: "longenough" }),
      400,
      /1–32/,
    ],
    [
      "wrong type",
      () => admin.post("/api/auth/users", { username: 42, password: "longenough" }),
      400,
      "Username is required",
    ],
    [
      "flag as string",
      () =>
        admin.post("/api/auth/users", { username: "x", password: "longenough", is_admin: "yes" }),
      400,
      "is_admin must be true or false",
    ],
    [
      "array body",
      () => admin.raw("POST", "/api/auth/users", "[1,2]"),
      400,
      "The request body must be a JSON object",
    ],
    [
      "malformed JSON",
      () => admin.raw("POST", "/api/auth/users", "{nope"),
      400,
      "Request body is not valid JSON",
    ],
    [
      "huge body",
      () => admin.post("/api/auth/users", { username: "x", password: huge }),
      413,
      "Request body is too large",
    ],
    ["unknown id", () => admin.delete("/api/auth/users/404"), 404, "User not found"],
    // Only a plain decimal names a record: anything else is no API path at all.
    ["id not a number", () => admin.delete("/api/auth/users/abc"), 404, "No API endpoint"],
    [
      "unknown permission",
      () => admin.put("/api/auth/users/1/permissions", { permission: "is_admin", value: true }),
      400,
      'permission must be "alerts_enabled"',
    ],
    [
      "permission unknown id",
      () =>
        admin.put("/api/auth/users/77/permissions", { permission: "alerts_enabled", value: true }),
      404,
      "User not found",
    ],
    [
      "login without body",
      () => new HttpClient(server.url).post("/api/auth/login"),
      400,
      "Username is required",
    ],
    [
      "login huge password",
      () =>
        new HttpClient(server.url).post("/api/auth/login", {
          username: "admin",
          password: "p".repeat(5000),
        }),
      400,
      "Password is too long",
    ],
  ];

  it.each(cases)("%s", async (_name, send, status, error) => {
    const before = await listUsers();
    const res = await send();
    expect(res.status).toBe(status);
    expect(typeof (res.body as { error: unknown }).error).toBe("string");
    expect((res.body as { error: string }).error).toMatch(error);
    expect(await listUsers()).toEqual(before);
  });
});
