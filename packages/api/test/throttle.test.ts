import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LOGIN_WINDOW_MS, LoginThrottle } from "../src/auth/throttle.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer({ feed: manualFeed() });
});
afterEach(() => server.stop());

/** A client whose connections come from another loopback address, i.e. another machine. */
const from = (address: string) => new HttpClient(server.url, address);
const login = (client: HttpClient, username: string, password: string) =>
  client.post("/api/auth/login", { username, password });

describe("login throttling over HTTP", () => {
  it("after 5 failures for a username, even the right password gets 429 from anywhere", async () => {
    for (let i = 1; i <= 5; i++) {
      const client = from(`127.0.0.${10 + i}`);
      expect((await login(client, "admin", "wrong-password")).status).toBe(401);
    }
    const res = await login(from("127.0.0.20"), "ADMIN", ADMIN.password);
    expect(res.status).toBe(429);
    expect(res.body.error).toBe("Too many failed login attempts. Try again in 15 minutes.");
  });

  it("after 5 failures from an address, other usernames from it get 429 too", async () => {
    const attacker = from("127.0.0.30");
    for (const name of ["a", "b", "c", "d", "e"])
      expect((await login(attacker, name, "guess-guess")).status).toBe(401);
    expect((await login(attacker, "admin", ADMIN.password)).status).toBe(429);
    expect((await login(from("127.0.0.31"), "admin", ADMIN.password)).status).toBe(200);
  });

  it("a success resets the username's count", async () => {
    for (let i = 0; i < 4; i++)
      expect((await login(from("127.0.0.40"), "admin", "wrong-password")).status).toBe(401);
    expect((await login(from("127.0.0.41"), "admin", ADMIN.password)).status).toBe(200);
    for (let i = 0; i < 4; i++)
      expect((await login(from("127.0.0.42"), "admin", "wrong-password")).status).toBe(401);
    expect((await login(from("127.0.0.43"), "admin", ADMIN.password)).status).toBe(200);
  });
});

describe("LoginThrottle window", () => {
  it("lets attempts through again once the oldest failure leaves the 15-minute window", () => {
    const throttle = new LoginThrottle();
    const keys = ["user:admin"];
    for (let i = 0; i < 5; i++) throttle.recordFailure(keys, 1_000 + i * 60_000);
    expect(throttle.retryAfter(keys, 5 * 60_000)).toBe(1_000 + LOGIN_WINDOW_MS - 5 * 60_000);
    expect(throttle.retryAfter(keys, 1_000 + LOGIN_WINDOW_MS)).toBe(0);
    throttle.reset("user:admin");
    expect(throttle.retryAfter(keys, 2_000)).toBe(0);
  });
});
