import { join } from "node:path";
import type { OutboxMessage } from "@spreadwatch/db";
import { openDatabase } from "@spreadwatch/db/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DATABASE_FILE } from "../src/server.ts";
import { FakeWebhook } from "./fakes/fake-webhook.ts";
import { eventually, until } from "./fakes/wait.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";
import { signIn } from "./telegram-trader.ts";

// Several users' webhooks at once on a real server: alice's receiver hangs or fails, bob's
// answers. One FakeWebhook stands in for both receivers, one path each, so the order in which
// their POSTs arrive is recorded in one list.

const ENV = { WEBHOOK_ALLOW_PRIVATE: "true" };
const SECRET = "trader-webhook-secret-42";

let receiver: FakeWebhook;
let server: TestServer;
const users = { alice: 0, bob: 0 };
type Trader = keyof typeof users;

beforeEach(async () => {
  receiver = await new FakeWebhook().start();
  server = await startTestServer({ feed: manualFeed(), env: ENV });
  const admin = await signIn(server, ADMIN.username, ADMIN.password);
  for (const name of Object.keys(users) as Trader[]) {
    await admin.post("/api/auth/users", { username: name, password: `${name}-pass-1` });
    const trader = await signIn(server, name, `${name}-pass-1`);
    const saved = await trader.put("/api/webhook", {
      url: receiver.urlFor(`/${name}`),
      secret: SECRET,
    });
    expect(saved.status).toBe(200);
    users[name] = (await server.services.store.users.findByUsername(name))?.id as number;
  }
});
afterEach(async () => {
  await server.stop();
  await receiver.stop();
});

interface Queued {
  id: number;
  key: string;
}

/** One firing of `who`'s with its webhook row, as the engine's transaction writes them. */
function queueFiring(who: Trader): Queued {
  const handle = openDatabase(join(server.dataDir, DATABASE_FILE));
  try {
    const sql = handle.db.$client;
    const now = Date.now();
    const firing = sql
      .prepare(
        `INSERT INTO alert_firings (user_id, symbol, metric, value, threshold, direction, state, source, fired_at, created_at)
         VALUES (?, 'GC_BUY', 'spread', 12.5, 10, 'above', 'fired', 'server', ?, ?)`,
      )
      .run(users[who], now, now);
    const firingId = Number(firing.lastInsertRowid);
    const body = JSON.stringify({ event: "alert.fired", firingId, symbol: "GC_BUY" });
    const row = sql
      .prepare(
        `INSERT INTO outbox (user_id, channel, firing_id, chat_id, text, created_at, next_attempt_at)
         VALUES (?, 'webhook', ?, '', ?, ?, ?)`,
      )
      .run(users[who], firingId, body, now, now);
    server.services.sender?.wake();
    return { id: Number(row.lastInsertRowid), key: `spreadwatch-firing-${firingId}` };
  } finally {
    handle.close();
  }
}

/** Makes a row due now (its backoff served) and wakes the senders. */
function age(id: number): void {
  const handle = openDatabase(join(server.dataDir, DATABASE_FILE));
  try {
    handle.db.$client.prepare("UPDATE outbox SET next_attempt_at = 0 WHERE id = ?").run(id);
  } finally {
    handle.close();
  }
  server.services.sender?.wake();
}

const row = async (id: number) =>
  (await server.services.store.outbox.list()).find((m) => m.id === id) as OutboxMessage;
const rowUntil = (id: number, check: (m: OutboxMessage) => boolean, what: string) =>
  eventually(() => row(id), check, what);
const sent = (m: OutboxMessage) => m.sentAt !== null;

/** The Idempotency-Keys that arrived at `who`'s receiver, in order of arrival. */
const arrivedAt = (who: Trader) =>
  receiver.arrived.filter((r) => r.path === `/${who}`).map((r) => r.headers["idempotency-key"]);

describe("webhook delivery across users", () => {
  it("a receiver hanging until the timeout holds only its own user: another's firing goes meanwhile", async () => {
    server.services.webhooks.timeoutMs = 5_000;
    receiver.hold("/alice");
    const a = queueFiring("alice");
    await until(() => arrivedAt("alice").length === 1, "alice's POST to arrive and hang");

    const b = queueFiring("bob");
    await rowUntil(b.id, sent, "bob's firing to be delivered while alice's hangs");
    // Bob's went out and was acknowledged while alice's POST was still unanswered.
    expect(await row(a.id)).toMatchObject({ sentAt: null, attempts: 0, claimedBy: "embedded" });
    expect(receiver.arrived.map((r) => r.path)).toEqual(["/alice", "/bob"]);
    expect(receiver.received.map((r) => [r.path, r.status])).toEqual([["/bob", 200]]);

    // Alice's attempt times out and is retried with its backoff, then goes with the same key.
    const failed = await rowUntil(a.id, (m) => m.attempts === 1, "alice's attempt to time out");
    expect(failed.lastError).toBe("The webhook did not answer within 5 s.");
    await until(() => receiver.hungUp.length === 1, "the sender to hang up on alice's receiver");
    receiver.release("/alice");
    age(a.id);
    await rowUntil(a.id, sent, "alice's retry to be delivered");
    expect(arrivedAt("alice")).toEqual([a.key, a.key]);
    expect(receiver.received.map((r) => r.headers["idempotency-key"])).toEqual([b.key, a.key]);
  });

  it("each user's firings arrive in order, later ones waiting out the failed one's backoff", async () => {
    receiver.answerNextAt("/alice", 500);
    const a1 = queueFiring("alice");
    const a2 = queueFiring("alice");
    const a3 = queueFiring("alice");
    const b1 = queueFiring("bob");
    await rowUntil(a1.id, (m) => m.attempts === 1, "alice's first firing to fail once");
    await rowUntil(b1.id, sent, "bob's firing to be delivered");

    // Alice serves her backoff alone: bob's next firing goes, hers wait behind her failed one.
    const b2 = queueFiring("bob");
    await rowUntil(b2.id, sent, "bob's second firing to be delivered");
    expect(arrivedAt("alice")).toEqual([a1.key]);
    expect(await row(a2.id)).toMatchObject({ sentAt: null, attempts: 0, claimedBy: null });

    age(a1.id);
    await rowUntil(a3.id, sent, "alice's last firing to be delivered");
    expect(arrivedAt("alice")).toEqual([a1.key, a1.key, a2.key, a3.key]);
    expect(arrivedAt("bob")).toEqual([b1.key, b2.key]);
    const alice = receiver.received.filter((r) => r.path === "/alice");
    expect(alice.map((r) => r.status)).toEqual([500, 200, 200, 200]);
  });

  it("a restart mid-flight delivers each row at least once, with the same key, in order", async () => {
    receiver.hold("/alice");
    const a1 = queueFiring("alice");
    await until(() => arrivedAt("alice").length === 1, "alice's POST to arrive and hang");
    const a2 = queueFiring("alice");
    const b1 = queueFiring("bob");
    await rowUntil(b1.id, sent, "bob's firing to be delivered");

    // The stop gives up on alice's unanswered POST; the row stays queued, never marked.
    server = await server.restart();
    await until(
      () => receiver.hungUp.length === 1,
      "the stopped server to hang up on alice's POST",
    );
    expect(receiver.hungUp[0]?.headers["idempotency-key"]).toBe(a1.key);
    receiver.release("/alice");
    await rowUntil(a2.id, sent, "alice's second firing to be delivered after the restart");
    expect(await row(a1.id)).toMatchObject({ attempts: 0, failedAt: null });
    expect((await row(a1.id)).sentAt).not.toBeNull();
    expect(arrivedAt("alice")).toEqual([a1.key, a1.key, a2.key]);
    expect(arrivedAt("bob")).toEqual([b1.key]);
    const answered = receiver.received.filter((r) => r.path === "/alice");
    expect(answered.map((r) => [r.headers["idempotency-key"], r.status])).toEqual([
      [a1.key, 200],
      [a2.key, 200],
    ]);
  });
});
