// kill -9 of the leader while a webhook POST is in flight (issues 11 and 12): the receiver got
// the POST but never answered, so the dead leader never marked it sent. The new leader sends it
// again once the dead one's lease runs out, with the same body, signature and Idempotency-Key
// (the at-least-once window a receiver deduplicates by key), and then the next firing, in order.
// Nothing is lost, and no other firing reaches the receiver twice.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crossingReplay } from "./crossing-replay.ts";
import { FakeWebhook, signatureVerifies } from "./fakes/fake-webhook.ts";
import { ProcessCluster } from "./fakes/process-cluster.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { manualFeed, startTestServer } from "./server.ts";
import { traderWithAlert } from "./telegram-trader.ts";

const SECRET = "a-webhook-secret-of-the-trader";
/** One crossing every 10 s of the leader's replay: time for the second instance to start first. */
const SPEED = 6;

const cluster = new ProcessCluster();
const receiver = new FakeWebhook();
const dir = mkdtempSync(join(tmpdir(), "spreadwatch-webhook-failover-"));
let instanceEnv: Record<string, string>;

const keyOf = (post: { headers: Record<string, unknown> }) =>
  String(post.headers["idempotency-key"]);

beforeAll(async () => {
  await Promise.all([cluster.start(), receiver.start()]);
  // The trader, the webhook and a webhook-only alert, made through an edge instance.
  const setup = await startTestServer({
    env: {
      ...cluster.env,
      WEBHOOK_ALLOW_PRIVATE: "true",
      INSTANCE_ROLE: "edge",
      INSTANCE_ID: "setup",
    },
    feed: manualFeed(),
  });
  const { trader } = await traderWithAlert(setup, {
    telegramNotify: false,
    webhookNotify: true,
    telegramMaxNotifications: 5,
  });
  expect((await trader.put("/api/webhook", { url: receiver.url, secret: SECRET })).status).toBe(
    200,
  );
  await setup.stop();
  instanceEnv = {
    WEBHOOK_ALLOW_PRIVATE: "true",
    FEED: "replay",
    REPLAY_FILE: crossingReplay(dir, 2),
    REPLAY_SPEED: String(SPEED),
    // The legs are quoted every 10 s here; a 10 s window would hold crossings on its edge.
    FEED_SILENCE_SECONDS: "30",
  };
}, 120_000);

afterAll(async () => {
  await cluster.stop();
  await receiver.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("kill -9 of the leader with a webhook POST in flight", () => {
  it("the new leader sends it again with the same key and signature, then the next, in order", async () => {
    // The receiver takes the first POST and never answers it.
    receiver.hold("/hook");
    const a = await cluster.startInstance("a", instanceEnv);
    await cluster.leads(a, "a to lead", 30_000);
    const b = await cluster.startInstance("b", instanceEnv);
    expect((await cluster.health(b)).instance).toEqual({ id: "b", leader: false });

    const [inFlight] = await eventually(
      async () => receiver.arrived,
      (arrived) => arrived.length === 1,
      "a's POST of the first firing to arrive",
      30_000,
    );
    if (!inFlight) throw new Error("no POST arrived");
    await cluster.kill(a);
    // The receiver sees a's connection close unanswered; from now on it answers.
    await eventually(
      async () => receiver.hungUp.length,
      (n) => n === 1,
      "a's POST to hang up",
    );
    receiver.release("/hook");
    await cluster.leads(b, "b to lead after a was killed", 10_000);

    // a's row comes back to b when its lease runs out; b's own crossing 2 queues behind it.
    const answered = await eventually(
      async () => receiver.received,
      (got) => got.length >= 2,
      "both firings delivered by b",
      60_000,
    );
    const [first, second] = answered;
    if (!first || !second) throw new Error("missing deliveries");
    // The same POST again: body, signature and key as a sent them.
    expect(keyOf(first)).toBe(keyOf(inFlight));
    expect(first.body).toBe(inFlight.body);
    expect(first.headers["x-spreadwatch-signature"]).toBe(
      inFlight.headers["x-spreadwatch-signature"],
    );
    expect(signatureVerifies(SECRET, first)).toBe(true);
    expect(signatureVerifies(SECRET, second)).toBe(true);
    // Then the next firing, a different one, after it.
    const [one, two] = [JSON.parse(first.body), JSON.parse(second.body)];
    expect(two.firingId).toBeGreaterThan(one.firingId);
    expect(keyOf(second)).toBe(`spreadwatch-firing-${two.firingId}`);
    expect([one.direction, two.direction]).toEqual(["above", "below"]);

    // Only the POST in flight at the kill arrived twice; the History says both were sent.
    const trader = new HttpClient(b.url);
    await trader.post("/api/auth/login", { username: "trader", password: "trader-pass-1" });
    const entries = await eventually(
      async () => (await trader.get("/api/alerts/history")).body.entries ?? [],
      // biome-ignore lint/suspicious/noExplicitAny: History entries as JSON
      (list: any[]) => list.length === 2 && list.every((e) => e.channels[0]?.state === "sent"),
      "both firings sent in the History",
      15_000,
    );
    expect(entries.map((e: { id: number }) => e.id)).toEqual([two.firingId, one.firingId]);
    const arrivals = receiver.arrived.map(keyOf);
    expect(arrivals).toEqual([keyOf(inFlight), keyOf(inFlight), keyOf(second)]);
  }, 180_000);
});
