import { expect } from "vitest";
import { HttpClient } from "../http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "../server.ts";

/** A client signed in as `username`. */
export async function signIn(server: TestServer, username: string, password: string) {
  const client = new HttpClient(server.url);
  expect((await client.post("/api/auth/login", { username, password })).status).toBe(200);
  return client;
}

/** Creates a user with alerts on, password `<username>-pass-1`, and signs it in. */
export async function addTrader(server: TestServer, admin: HttpClient, username: string) {
  const password = `${username}-pass-1`;
  await admin.post("/api/auth/users", { username, password, alerts_enabled: true });
  return signIn(server, username, password);
}

/**
 * A server on a manual feed with the admin signed in and one trader, "trader" (password
 * "trader-pass-1", alerts on, user 2), signed in too: the start of every alert API test.
 */
export async function startWithTrader() {
  const server = await startTestServer({ feed: manualFeed() });
  try {
    const admin = await signIn(server, ADMIN.username, ADMIN.password);
    const trader = await addTrader(server, admin, "trader");
    return { server, admin, trader };
  } catch (error) {
    // The caller never gets the server to stop.
    await server.stop();
    throw error;
  }
}
