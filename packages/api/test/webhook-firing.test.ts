// docs/user-guide.md "Webhooks" end to end, through the public API only: a trader sets a webhook
// and a z-score alert with Telegram and Webhook on; the spread's crossing reaches the fake Telegram
// and the fake receiver (signed, with the firing's Idempotency-Key), and the History shows both
// channels delivered.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { crossingTime } from "./crossing-replay.ts";
import { FakeTelegram } from "./fake-telegram.ts";
import { pushGoldSpread, pushLegs, storeGoldStatistics } from "./fakes/crossing-feed.ts";
import { FakeWebhook, signatureVerifies } from "./fakes/fake-webhook.ts";
import { eventually } from "./fakes/wait.ts";
import { manualFeed, startTestServer, type TestServer } from "./server.ts";
import * as setup from "./telegram-trader.ts";
import { FIXED_DAYS_ENV } from "./test-env.ts";

type ManualFeed = ReturnType<typeof manualFeed>;

const SECRET = "a-webhook-secret-of-the-trader";
const T = crossingTime(0);
const SECOND = 1_000;

let telegram: FakeTelegram;
let receiver: FakeWebhook;
let server: TestServer;
let feed: ManualFeed;

beforeEach(async () => {
  [telegram, receiver] = await Promise.all([new FakeTelegram().start(), new FakeWebhook().start()]);
  feed = manualFeed();
  server = await startTestServer({
    feed,
    env: { ...FIXED_DAYS_ENV, ...setup.telegramEnv(telegram), WEBHOOK_ALLOW_PRIVATE: "true" },
  });
});
afterEach(async () => {
  await server.stop();
  await Promise.all([telegram.stop(), receiver.stop()]);
});

/** GC_BUY at each of `spreads`, one second apart from T. */
function quotes(spreads: readonly number[]) {
  pushLegs(feed, T);
  for (const [i, spread] of spreads.entries()) pushGoldSpread(feed, spread, T + i * SECOND);
}

/** GC_BUY closes −10 and +10 before T: z = spread / 10 once a restart loads them. */
async function seedStatistics() {
  await storeGoldStatistics(server.services.store, T);
  feed = manualFeed();
  server = await server.restart({ feed });
}

describe("a firing reaches Telegram and the webhook, and the History says so", () => {
  it("delivers one signed POST per firing with its Idempotency-Key, and both channels show sent", async () => {
    await seedStatistics();
    const { trader, alertId } = await setup.traderWithAlert(server, {
      threshold: 2,
      metric: "zscore",
      webhookNotify: true,
      telegramMaxNotifications: 3,
    });
    const saved = await trader.put("/api/webhook", { url: receiver.url, secret: SECRET });
    expect(saved.status).toBe(200);

    quotes([0, 25]); // z 0, then 2.5: one crossing above 2
    await eventually(
      async () => receiver.received,
      (got) => got.length === 1,
      "the webhook POST",
      15_000,
    );
    const [post] = receiver.received;
    if (!post) throw new Error("no POST");
    expect(signatureVerifies(SECRET, post)).toBe(true);
    expect(post.headers["x-spreadwatch-event"]).toBe("alert.fired");
    const body = JSON.parse(post.body);
    expect(body).toMatchObject({
      event: "alert.fired",
      alertId,
      symbol: "GC_BUY",
      name: "Gold",
      metric: "zscore",
      threshold: 2,
      direction: "above",
      firedAt: T + SECOND,
      count: 1,
      limit: 3,
    });
    expect(body.value).toBeCloseTo(2.5, 9);
    expect(post.headers["idempotency-key"]).toBe(`spreadwatch-firing-${body.firingId}`);
    expect(setup.alertTexts(telegram)).toHaveLength(1);
    expect(setup.alertTexts(telegram)[0]).toContain("Z-score 2.50 crossed above");

    const history = await eventually(
      async () => (await trader.get("/api/alerts/history")).body.entries,
      (entries) =>
        entries.length === 1 &&
        entries[0].channels.every((c: { state: string }) => c.state === "sent"),
      "both channels delivered in the History",
      15_000,
    );
    expect(history[0]).toMatchObject({
      id: body.firingId,
      alertId,
      metric: "zscore",
      state: "fired",
      source: "server",
      channels: expect.arrayContaining([
        { channel: "telegram", state: "sent", attempts: 1 },
        { channel: "webhook", state: "sent", attempts: 1 },
      ]),
    });
  });
});

describe("a webhook-only alert (Telegram off)", () => {
  it("keeps firing up to its limit, then is switched off naming the webhook", async () => {
    // Telegram is connected but not ticked: every firing goes to the webhook alone.
    const { trader, alertId } = await setup.traderWithAlert(server, {
      threshold: 0,
      telegramNotify: false,
      webhookNotify: true,
      // The modal's field, as a trader running a bot raises it there.
      maxNotifications: 3,
    });
    expect((await trader.put("/api/webhook", { url: receiver.url, secret: SECRET })).status).toBe(
      200,
    );
    // Below, above, below, above, below: four crossings 40 s apart (past the 30 s cooldown).
    pushLegs(feed, T);
    for (const [i, spread] of [-10, 10, -10, 10, -10].entries())
      pushGoldSpread(feed, spread, T + i * 40 * SECOND);
    await setup.settled(server);

    const bodies = receiver.received.map((post) => JSON.parse(post.body));
    expect(bodies.map((b) => [b.event, b.direction, b.count, b.limit])).toEqual([
      ["alert.fired", "above", 1, 3],
      ["alert.fired", "below", 2, 3],
      ["alert.fired", "above", 3, 3],
    ]);
    expect(setup.alertTexts(telegram)).toEqual([]);
    const { body } = await trader.get("/api/alerts");
    expect(body.alerts).toEqual([
      expect.objectContaining({
        id: alertId,
        enabled: false,
        telegramNotify: false,
        webhookNotify: true,
        telegramNotificationCount: 3,
        telegramMaxNotifications: 3,
        lastTelegramTriggered: T + 3 * 40 * SECOND,
        disabledReason: expect.stringMatching(/^Webhook limit 3 of 3 reached at \d\d:\d\d IST$/),
      }),
    ]);
  });

  it("starts its count again when the trader switches it back on", async () => {
    const { trader, alertId } = await setup.traderWithAlert(server, {
      telegramNotify: false,
      webhookNotify: true,
    });
    await trader.put("/api/webhook", { url: receiver.url, secret: SECRET });
    pushLegs(feed, T);
    pushGoldSpread(feed, -10, T);
    pushGoldSpread(feed, 10, T + SECOND);
    await setup.settled(server);
    expect(receiver.received).toHaveLength(1);
    // The default limit is 1: switched off after the first firing, and on again by the trader.
    const off = (await trader.get("/api/alerts")).body.alerts[0];
    expect(off).toMatchObject({
      enabled: false,
      disabledReason: expect.stringMatching(/^Webhook/),
    });
    const on = await trader.put(`/api/alerts/${alertId}`, { enabled: true });
    expect(on.body.alert).toMatchObject({ enabled: true, telegramNotificationCount: 0 });
    await eventually(
      async () => server.services.alertEngine.watchedCount,
      (n) => n === 1,
      "the engine to watch the re-enabled alert",
    );
    pushGoldSpread(feed, -10, T + 40 * SECOND);
    await setup.settled(server);
    expect(receiver.received.map((post) => JSON.parse(post.body).count)).toEqual([1, 1]);
  });
});
