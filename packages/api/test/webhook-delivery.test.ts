import { join } from "node:path";
import type { OutboxMessage } from "@spreadwatch/db";
import { openDatabase } from "@spreadwatch/db/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DATABASE_FILE } from "../src/server.ts";
import type { ResolvedAddress } from "../src/webhooks/webhook-target.ts";
import { FakeWebhook, signatureVerifies } from "./fakes/fake-webhook.ts";
import { eventually, until } from "./fakes/wait.ts";
import type { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";
import { signIn } from "./telegram-trader.ts";

// Webhook delivery on a real server to a real receiver on loopback (WEBHOOK_ALLOW_PRIVATE=true).
// Firings are queued as the alert engine's transaction writes them: an alert_firings row and a
// "webhook" outbox row whose text is the contract's JSON body.

const ENV = { WEBHOOK_ALLOW_PRIVATE: "true" };
const SECRET = "trader-webhook-secret-42";
const HOUR = 60 * 60 * 1000;

let receiver: FakeWebhook;
let server: TestServer;
let trader: HttpClient;
let userId: number;

// A server per test: its outbox sender claims every user's rows, so a row another test left
// retrying (backing off 10 s, 20 s…) would reach this test's receiver.
beforeEach(async () => {
  receiver = await new FakeWebhook().start();
  server = await startTestServer({ feed: manualFeed(), env: ENV });
  const admin = await signIn(server, ADMIN.username, ADMIN.password);
  await admin.post("/api/auth/users", { username: "trader", password: "trader-pass-1" });
  trader = await signIn(server, "trader", "trader-pass-1");
  userId = (await server.services.store.users.findByUsername("trader"))?.id as number;
  const saved = await trader.put("/api/webhook", { url: receiver.url, secret: SECRET });
  expect(saved.status).toBe(200);
});
afterEach(async () => {
  await server.stop();
  await receiver.stop();
});

/** Runs `work` on a second connection to the server's SQLite file (as tests that age rows do). */
function direct<T>(work: (sql: ReturnType<typeof openDatabase>["db"]["$client"]) => T): T {
  const handle = openDatabase(join(server.dataDir, DATABASE_FILE));
  try {
    return work(handle.db.$client);
  } finally {
    handle.close();
  }
}

/** One firing with its webhook row, as the contract says the engine writes them. */
function queueFiring(createdAt = Date.now()): { id: number; firingId: number; body: string } {
  return direct((sql) => {
    const firedAt = createdAt - 1_000;
    const firing = sql
      .prepare(
        `INSERT INTO alert_firings (user_id, symbol, metric, value, threshold, direction, state, source, fired_at, created_at)
         VALUES (?, 'GC_BUY', 'spread', 12.5, 10, 'above', 'fired', 'server', ?, ?)`,
      )
      .run(userId, firedAt, createdAt);
    const firingId = Number(firing.lastInsertRowid);
    const body = JSON.stringify({
      event: "alert.fired",
      firingId,
      alertId: null,
      symbol: "GC_BUY",
      metric: "spread",
      value: 12.5,
      threshold: 10,
      direction: "above",
      firedAt,
      firedAtIst: "2026-11-23 14:02:05 IST",
      count: 1,
      limit: 3,
      text: "🔔 GC_BUY spread 12.5 crossed above 10 — ₹ and ü survive signing",
    });
    const row = sql
      .prepare(
        `INSERT INTO outbox (user_id, channel, firing_id, chat_id, text, created_at, next_attempt_at)
         VALUES (?, 'webhook', ?, '', ?, ?, ?)`,
      )
      .run(userId, firingId, body, createdAt, createdAt);
    server.services.sender?.wake();
    return { id: Number(row.lastInsertRowid), firingId, body };
  });
}

/** Makes a row due now (its backoff served) and wakes the senders. */
function age(id: number): void {
  direct((sql) => sql.prepare("UPDATE outbox SET next_attempt_at = 0 WHERE id = ?").run(id));
  server.services.sender?.wake();
}

const row = async (id: number) =>
  (await server.services.store.outbox.list()).find((m) => m.id === id) as OutboxMessage;
const rowUntil = (id: number, check: (m: OutboxMessage) => boolean, what: string) =>
  eventually(() => row(id), check, what);

describe("webhook delivery", () => {
  it("POSTs the stored body with the contract's headers, signed with the user's secret", async () => {
    const { id, firingId, body } = queueFiring();
    await until(() => receiver.received.length === 1, "the webhook to arrive");
    const [got] = receiver.received;
    expect(got?.body).toBe(body);
    expect(got?.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "Spreadwatch-Webhook/1",
      "x-spreadwatch-event": "alert.fired",
      "idempotency-key": `spreadwatch-firing-${firingId}`,
    });
    expect(signatureVerifies(SECRET, got as NonNullable<typeof got>)).toBe(true);
    expect(signatureVerifies("another-secret-entirely", got as NonNullable<typeof got>)).toBe(
      false,
    );
    const sent = await rowUntil(id, (m) => m.sentAt !== null, "the row to be marked sent");
    expect(sent).toMatchObject({ attempts: 0, failedAt: null, claimedBy: null });
  });

  it("retries after 500, 500 with the same Idempotency-Key and body, backing off 10 s then 20 s", async () => {
    receiver.answerNext(500, 500);
    const { id, firingId, body } = queueFiring();
    const before = Date.now();
    const first = await rowUntil(id, (m) => m.attempts === 1, "the first failure to be counted");
    expect(first.lastError).toBe("The webhook answered HTTP 500.");
    expect(first.nextAttemptAt).toBeGreaterThanOrEqual(before + 10_000);
    expect(first.nextAttemptAt).toBeLessThanOrEqual(Date.now() + 10_000);
    age(id);
    const second = await rowUntil(id, (m) => m.attempts === 2, "the second failure");
    expect(second.nextAttemptAt).toBeGreaterThanOrEqual(Date.now() + 19_000);
    expect(second.nextAttemptAt).toBeLessThanOrEqual(Date.now() + 20_000);
    age(id);
    await rowUntil(id, (m) => m.sentAt !== null, "the third attempt to be accepted");
    expect(receiver.received.map((r) => r.status)).toEqual([500, 500, 200]);
    for (const got of receiver.received) {
      expect(got.headers["idempotency-key"]).toBe(`spreadwatch-firing-${firingId}`);
      expect(got.body).toBe(body);
      expect(signatureVerifies(SECRET, got)).toBe(true);
    }
  });

  it("across a restart: an acknowledged row is never sent again, a pending one goes out with its key", async () => {
    const a = queueFiring();
    await rowUntil(a.id, (m) => m.sentAt !== null, "A to be delivered");
    receiver.answerNext(500);
    const b = queueFiring();
    await rowUntil(b.id, (m) => m.attempts === 1, "B to fail once");

    server = await server.restart();
    age(b.id);
    await eventually(
      () => row(b.id),
      (m) => m.sentAt !== null,
      "B to be delivered after the restart",
    );
    // A newer firing goes out too, after the pending one: the sender is running, and A stayed put.
    const c = queueFiring();
    await rowUntil(c.id, (m) => m.sentAt !== null, "C to be delivered");
    expect(receiver.received.map((r) => [r.headers["idempotency-key"], r.status])).toEqual([
      [`spreadwatch-firing-${a.firingId}`, 200],
      [`spreadwatch-firing-${b.firingId}`, 500],
      [`spreadwatch-firing-${b.firingId}`, 200],
      [`spreadwatch-firing-${c.firingId}`, 200],
    ]);
  });

  it("gives up 24 h after the firing was queued", async () => {
    receiver.answerNext(500);
    // 5 s of the window left: the next retry (10 s away) would fall outside it.
    const late = queueFiring(Date.now() - 24 * HOUR + 5_000);
    const failed = await rowUntil(late.id, (m) => m.failedAt !== null, "the late row to fail");
    expect(failed.lastError).toBe("The webhook answered HTTP 500. Given up 24 h after the firing.");
    expect(receiver.received).toHaveLength(1);
    // Queued more than 24 h ago (the server was down): not sent at all.
    const stale = queueFiring(Date.now() - 25 * HOUR);
    const expired = await rowUntil(stale.id, (m) => m.failedAt !== null, "the stale row to fail");
    expect(expired.lastError).toBe("Not delivered within 24 h of the firing; given up.");
    expect(receiver.received).toHaveLength(1);
  });

  it("a webhook removed meanwhile fails the row with a clear error, sending nothing", async () => {
    expect((await trader.delete("/api/webhook")).status).toBe(200);
    const { id } = queueFiring();
    const failed = await rowUntil(id, (m) => m.failedAt !== null, "the row to fail");
    expect(failed.lastError).toBe("The webhook was removed before this alert could be delivered.");
    expect(receiver.received).toEqual([]);
  });

  it("connects to the address the guard checked: a host rebound to 169.254.169.254 is refused even with the flag", async () => {
    const dns = new Map([["hooks.internal.test", "127.0.0.1"]]);
    server.services.webhooks.resolve = async (host): Promise<ResolvedAddress[]> => [
      { address: dns.get(host) ?? "0.0.0.0", family: 4 },
    ];
    const url = receiver.url.replace("127.0.0.1", "hooks.internal.test");
    expect((await trader.put("/api/webhook", { url, secret: SECRET })).status).toBe(200);
    const first = queueFiring();
    await rowUntil(first.id, (m) => m.sentAt !== null, "delivery through the injected resolver");
    expect(receiver.received[0]?.headers.host).toMatch(/^hooks\.internal\.test:/);

    dns.set("hooks.internal.test", "169.254.169.254");
    const second = queueFiring();
    const refused = await rowUntil(
      second.id,
      (m) => m.failedAt !== null,
      "the rebound row to fail",
    );
    expect(refused.lastError).toBe(
      "Refused: hooks.internal.test resolves to 169.254.169.254 is a link-local address (such as the cloud metadata service); this is never allowed.",
    );
    expect(receiver.received).toHaveLength(1);
  });

  it("a Telegram outage or its rows never hold a webhook back: each channel claims its own", async () => {
    // A Telegram row with no Telegram configured on this server stays queued; the webhook goes.
    direct((sql) =>
      sql
        .prepare(
          `INSERT INTO outbox (user_id, channel, chat_id, text, created_at, next_attempt_at)
           VALUES (?, 'telegram', '4242', 'hello', ?, 0)`,
        )
        .run(userId, Date.now()),
    );
    const { id } = queueFiring();
    await rowUntil(id, (m) => m.sentAt !== null, "the webhook row to be delivered");
    const telegram = (await server.services.store.outbox.list()).find(
      (m) => m.channel === "telegram",
    );
    expect(telegram).toMatchObject({ sentAt: null, failedAt: null, claimedBy: null, attempts: 0 });
  });
});

describe("Send test", () => {
  it("POSTs a signed test body now and reports the receiver's answer", async () => {
    const ok = await trader.post("/api/webhook/test");
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, status: 200 });
    const [got] = receiver.received;
    expect(JSON.parse(got?.body ?? "{}")).toMatchObject({ event: "test" });
    expect(got?.headers["x-spreadwatch-event"]).toBe("test");
    expect(got?.headers["idempotency-key"]).toMatch(/^spreadwatch-test-[0-9a-f-]{36}$/);
    expect(signatureVerifies(SECRET, got as NonNullable<typeof got>)).toBe(true);

    receiver.answerNext(503);
    const failed = await trader.post("/api/webhook/test");
    expect(failed.body).toEqual({
      ok: false,
      status: 503,
      error: "The webhook answered HTTP 503.",
    });
  });

  it("a double click on Send test sends one POST: the second click is told a test is on its way", async () => {
    receiver.hold("/hook");
    const first = trader.post("/api/webhook/test");
    await until(() => receiver.arrived.length === 1, "the first test to reach the receiver");
    const second = await trader.post("/api/webhook/test");
    expect(second.status).toBe(429);
    expect(second.body.error).toBe("A test is already being sent.");
    receiver.release("/hook");
    expect((await first).body).toEqual({ ok: true, status: 200 });
    expect(receiver.arrived).toHaveLength(1);
    // Once it is answered the button works again.
    expect((await trader.post("/api/webhook/test")).body).toEqual({ ok: true, status: 200 });
  });

  it("says when the receiver cannot be reached", async () => {
    await receiver.stop();
    const res = await trader.post("/api/webhook/test");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: false,
      error: expect.stringMatching(/^Could not reach the webhook: .*ECONNREFUSED/),
    });
  });

  it("with WEBHOOK_ALLOW_PRIVATE: http:// and loopback are accepted, link-local never", async () => {
    expect((await trader.get("/api/webhook")).body.url).toBe(receiver.url);
    const metadata = await trader.put("/api/webhook", {
      url: "http://169.254.169.254/latest/meta-data/",
      secret: SECRET,
    });
    expect(metadata.status).toBe(400);
    expect(metadata.body.error).toMatch(/link-local address.*never allowed/);
    const v6 = await trader.put("/api/webhook", { url: "http://[fe80::1]/", secret: SECRET });
    expect(v6.status).toBe(400);
    expect((await trader.get("/api/webhook")).body.url).toBe(receiver.url);
  });
});
