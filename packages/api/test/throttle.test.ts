import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { addressBucket, LOGIN_LIMITS } from "../src/auth/throttle.ts";
import { HttpClient, type JsonResponse } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

/** Counts password checks in the real server, to measure how many guesses reach the hash. */
const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock("../src/auth/passwords.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../src/auth/passwords.ts")>();
  return {
    ...real,
    verifyPassword: (...args: Parameters<typeof real.verifyPassword>) => {
      checks.count++;
      return real.verifyPassword(...args);
    },
  };
});

let server: TestServer;
beforeEach(async () => {
  checks.count = 0;
  server = await startTestServer({ feed: manualFeed() });
});
afterEach(() => server.stop());

/** A client whose connections come from another loopback address, i.e. another machine. */
const from = (address: string) => new HttpClient(server.url, address);
const login = (client: HttpClient, username: string, password: string) =>
  client.post("/api/auth/login", { username, password });
const WINDOW_SECONDS = LOGIN_LIMITS.windowMs / 1000;

/** Fires `count` logins at once and sorts the answers by status. */
async function burst(count: number, send: (i: number) => Promise<JsonResponse>) {
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => send(i)));
  const withStatus = (status: number) => answers.filter((a) => a.status === status);
  return {
    answers,
    refused: withStatus(429),
    denied: withStatus(401),
    other: answers.filter((a) => a.status !== 401 && a.status !== 429),
  };
}

function expectRetryAfterInBody(res: JsonResponse) {
  expect(res.body.retryAfterSeconds).toBeGreaterThan(0);
  expect(res.body.retryAfterSeconds).toBeLessThanOrEqual(WINDOW_SECONDS);
}

describe("login limit per (username, address)", () => {
  it("of 40 parallel wrong guesses for one user, at most 5 reach the password check", async () => {
    const attacker = from("127.0.0.2");
    const { denied, refused, other } = await burst(40, () =>
      login(attacker, "admin", "wrong-password"),
    );
    expect(other).toEqual([]);
    expect(checks.count).toBeLessThanOrEqual(LOGIN_LIMITS.perUserAddress);
    expect(denied.length).toBeLessThanOrEqual(LOGIN_LIMITS.perUserAddress);
    for (const res of denied) expect(res.body.error).toBe("Invalid username or password");
    expect(refused.length).toBe(40 - denied.length);
    for (const res of refused) {
      expect(res.body.error).toBe("Too many failed login attempts. Try again in 15 minutes.");
      expectRetryAfterInBody(res);
    }
    // Even the right password is refused from there now.
    expect((await login(attacker, "admin", ADMIN.password)).status).toBe(429);
  });

  it("failures from one address do not lock the admin out from another", async () => {
    const stranger = from("127.0.0.2");
    for (let i = 0; i < LOGIN_LIMITS.perUserAddress; i++)
      expect((await login(stranger, "admin", "wrong-password")).status).toBe(401);
    expect((await login(stranger, "ADMIN", ADMIN.password)).status).toBe(429);
    const res = await login(from("127.0.0.1"), "admin", ADMIN.password);
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe("admin");
  });

  it("a success clears the count of its (username, address)", async () => {
    const desk = from("127.0.0.3");
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < LOGIN_LIMITS.perUserAddress - 1; i++)
        expect((await login(desk, "admin", "wrong-password")).status).toBe(401);
      expect((await login(desk, "admin", ADMIN.password)).status).toBe(200);
    }
  });

  it("holds across a restart on the same DATA_DIR", async () => {
    const attacker = from("127.0.0.4");
    for (let i = 0; i < LOGIN_LIMITS.perUserAddress; i++)
      expect((await login(attacker, "admin", "wrong-password")).status).toBe(401);
    server = await server.restart();
    const res = await login(new HttpClient(server.url, "127.0.0.4"), "admin", ADMIN.password);
    expect(res.status).toBe(429);
    expectRetryAfterInBody(res);
  });

  it("says when to retry over tRPC too", async () => {
    const attacker = from("127.0.0.5");
    const input = { username: "admin", password: "wrong-password" };
    const send = () => attacker.post("/api/trpc/auth.login", input);
    for (let i = 0; i < LOGIN_LIMITS.perUserAddress; i++) expect((await send()).status).toBe(401);
    const res = await send();
    expect(res.status).toBe(429);
    expect(res.body.error.message).toBe("Too many failed login attempts. Try again in 15 minutes.");
    expect(res.body.error.data.retryAfterSeconds).toBeGreaterThan(0);
    expect(res.body.error.data.retryAfterSeconds).toBeLessThanOrEqual(WINDOW_SECONDS);
  });
});

describe("login limit per address", () => {
  it("caps one address across usernames, in flight included, without touching other addresses", async () => {
    const sprayer = from("127.0.0.6");
    const count = LOGIN_LIMITS.perAddress + 10;
    const { denied, refused, other } = await burst(count, (i) =>
      login(sprayer, `user${i}`, "guess-guess"),
    );
    expect(other).toEqual([]);
    expect(denied.length).toBe(LOGIN_LIMITS.perAddress);
    expect(refused.length).toBe(10);
    for (const res of refused) {
      expect(res.body.error).toBe(
        "Too many login attempts from your address. Try again in 15 minutes.",
      );
      expectRetryAfterInBody(res);
    }
    expect((await login(sprayer, "admin", ADMIN.password)).status).toBe(429);
    expect((await login(from("127.0.0.7"), "admin", ADMIN.password)).status).toBe(200);
    // 50 password hashes at once on a shared CI box: generous, and not a timing assertion.
  }, 60_000);
});

// The HTTP edge turns `retryAfterSeconds` into the Retry-After header (docs/operations.md,
// "Security and limits").
describe("Retry-After header", () => {
  it("429 carries Retry-After in seconds over REST and tRPC", async () => {
    const attacker = from("127.0.0.8");
    for (let i = 0; i < LOGIN_LIMITS.perUserAddress; i++)
      expect((await login(attacker, "admin", "wrong-password")).status).toBe(401);
    const rest = await login(attacker, "admin", "wrong-password");
    const trpc = await attacker.post("/api/trpc/auth.login", { username: "admin", password: "x" });
    for (const res of [rest, trpc]) {
      expect(res.status).toBe(429);
      const seconds = Number(res.headers["retry-after"]);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(WINDOW_SECONDS);
    }
  });
});

describe("addressBucket", () => {
  it("counts IPv4 per address and IPv6 per /64", () => {
    expect(addressBucket("203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("2001:db8:0:1::1")).toBe("2001:db8:0:1::/64");
    expect(addressBucket("2001:0db8:0000:0001:ffff:1:2:3")).toBe("2001:db8:0:1::/64");
    expect(addressBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
    expect(addressBucket("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressBucket(undefined)).toBe("unknown");
  });
});
