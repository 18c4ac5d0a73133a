import { spawnSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { START_SCRIPT } from "../../../scripts/production-build.mjs";
import { HttpClient } from "./http-client.ts";
import { manualFeed, startTestServer, type TestServer } from "./server.ts";
import { processEnv, TEST_SERVER_ENV } from "./test-env.ts";

let server: TestServer;
// A fresh server per test: the tests assert user ids and the whole list the CLI prints.
beforeEach(async () => {
  server = await startTestServer({ feed: manualFeed() });
});
afterEach(() => server.stop());

/** `pnpm users …` as an operator runs it (the CLI's bundle), against the running server's DATA_DIR. */
function users(...args: string[]) {
  return usersWith({}, ...args);
}

function usersWith(env: Record<string, string>, ...args: string[]) {
  const run = spawnSync(process.execPath, [START_SCRIPT, "users", ...args], {
    env: {
      ...processEnv(),
      DATA_DIR: server.dataDir,
      ...TEST_SERVER_ENV,
      ...env,
    },
    encoding: "utf8",
  });
  return { code: run.status, out: run.stdout, err: run.stderr.trim() };
}

describe("pnpm users", () => {
  it("refuses a PASSWORD_HASH_COST out of range, in one line, and creates nobody", () => {
    expect(
      usersWith({ PASSWORD_HASH_COST: "9" }, "create", "desk", "--password", "desk-password"),
    ).toEqual({
      code: 1,
      out: "",
      err: 'users: Invalid PASSWORD_HASH_COST: must be a whole number from 10 to 17 (scrypt\'s N is 2 to this power) (got "9")',
    });
    expect(users("list").out).toBe("1\tadmin\tadmin\talerts on\n");
  });

  it("creates a user the running server accepts, and lists users", async () => {
    expect(users("create", "desk", "--alerts", "--password", "desk-password")).toMatchObject({
      code: 0,
      out: 'Created user "desk".\n',
    });
    const client = new HttpClient(server.url);
    const res = await client.post("/api/auth/login", {
      username: "desk",
      password: "desk-password",
    });
    expect(res.body.user).toEqual({
      id: 2,
      username: "desk",
      is_admin: false,
      alerts_enabled: true,
    });
    expect(users("list").out).toBe("1\tadmin\tadmin\talerts on\n2\tdesk\tuser\talerts on\n");
  });

  it("resets a password with a generated one, printed once, ending the user's sessions", async () => {
    const client = new HttpClient(server.url);
    await client.post("/api/auth/login", { username: "admin", password: "admin-password-1" });
    const reset = users("reset-password", "Admin");
    expect(reset.code).toBe(0);
    const password = /^│ {3}(\S+)/m.exec(reset.out)?.[1] as string;
    expect(password).toMatch(/^[\w-]{16}$/);
    expect((await client.get("/api/auth/heartbeat")).body).toEqual({
      valid: false,
      reason: "password_changed",
    });
    expect((await client.post("/api/auth/login", { username: "admin", password })).status).toBe(
      200,
    );
  });

  it("explains bad input in one line and exits 1", () => {
    expect(users("create", "bad name", "--password", "longenough")).toMatchObject({
      code: 1,
      err: "users: Username must be 1–32 letters, digits, dots, underscores or dashes",
    });
    expect(users("create", "ADMIN", "--password", "longenough")).toMatchObject({
      code: 1,
      err: 'users: Username "ADMIN" already exists',
    });
    expect(users("create", "x", "--password", "short")).toMatchObject({
      code: 1,
      err: "users: Password must be at least 8 characters",
    });
    expect(users("reset-password", "ghost")).toMatchObject({
      code: 1,
      err: 'users: No user "ghost".',
    });
  });
});
