// Alerts on a spread of one's own (docs/user-guide.md "Spread alerts", docs/formulas.md) on a real
// server: an alert on a definition's BUY symbol fires on the fake Telegram and a webhook receiver
// when the live value crosses, naming the definition; it is held on a stale leg; another user's
// private symbol is refused as an unknown one is; a changed definition keeps its alerts (firing
// on the new formula) and a deleted one takes them with it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { crossingTime } from "./crossing-replay.ts";
import { FakeTelegram } from "./fake-telegram.ts";
import { FakeWebhook, signatureVerifies } from "./fakes/fake-webhook.ts";
import { addTrader } from "./fakes/signed-in-trader.ts";
import { eventually } from "./fakes/wait.ts";
import type { HttpClient } from "./http-client.ts";
import { manualFeed, startTestServer, type TestServer } from "./server.ts";
import * as setup from "./telegram-trader.ts";

type ManualFeed = ReturnType<typeof manualFeed>;

const SECRET = "a-webhook-secret-of-the-trader";
const T = crossingTime(0);
const SECOND = 1_000;

/** g / s: BUY = GOLD ask / SILVER bid (docs/formulas.md). */
const RATIO = {
  name: "Gold/silver",
  legs: [
    { name: "g", instrument: "GOLD" },
    { name: "s", instrument: "SILVER" },
  ],
  formula: "g / s",
};

let telegram: FakeTelegram;
let receiver: FakeWebhook;
let server: TestServer;
let feed: ManualFeed;

async function start(env: Record<string, string> = {}, staleAfterMs?: number) {
  feed = manualFeed();
  // The feed's own silence window is read when the server starts, so it is set before.
  if (staleAfterMs !== undefined) Object.assign(feed, { staleAfterMs });
  server = await startTestServer({
    feed,
    env: { ...setup.telegramEnv(telegram), WEBHOOK_ALLOW_PRIVATE: "true", ...env },
  });
}

// A server per test (started by each describe): the engine's watched count, the last prices of
// GOLD and SILVER and the fake Telegram's messages are the server's, and the tests assert them.
beforeEach(async () => {
  [telegram, receiver] = await Promise.all([new FakeTelegram().start(), new FakeWebhook().start()]);
});
afterEach(async () => {
  await server.stop();
  await Promise.all([telegram.stop(), receiver.stop()]);
});

/** SILVER at 1000 bid (the ratio's BUY divides by it), at `ts`. */
function silver(ts: number) {
  feed.push({ source: "mcx", key: "SILVER", bid: 1000, ask: 1001, ts });
}

/** Puts the ratio's BUY (GOLD ask / SILVER bid 1000) at `value` with a GOLD quote at `ts`. */
function ratio(value: number, ts: number) {
  const ask = value * 1000;
  feed.push({ source: "mcx", key: "GOLD", bid: ask - 20, ask, ts });
}

/**
 * The trader (Telegram on CHAT, a webhook to the receiver) with the ratio as their own private
 * definition, and an alert on its BUY symbol at `threshold` (Telegram and webhook on).
 */
async function traderWithRatioAlert(threshold: number, alert: Record<string, unknown> = {}) {
  const { admin, trader, alertId: builtIn } = await setup.traderWithAlert(server, {});
  // The helper's GC_BUY alert is not this test's.
  expect((await trader.delete(`/api/alerts/${builtIn}`)).status).toBe(200);
  expect((await trader.put("/api/webhook", { url: receiver.url, secret: SECRET })).status).toBe(
    200,
  );
  const made = await trader.post("/api/spreads", RATIO);
  expect(made.status).toBe(201);
  const { id, symbol } = made.body as { id: number; symbol: string };
  const created = await trader.post("/api/alerts", {
    commodityType: `${symbol}_BUY`,
    threshold,
    telegramNotify: true,
    webhookNotify: true,
    telegramMaxNotifications: 5,
    ...alert,
  });
  expect(created.status).toBe(200);
  await server.services.alertEngine.idle();
  return { admin, trader, id, symbol, alertId: created.body.alert.id as number };
}

/** The engine watching `n` alerts (a change reaches it through the bus and a re-read). */
async function watching(n: number) {
  await eventually(
    async () => {
      await server.services.alertEngine.idle();
      return server.services.alertEngine.watchedCount;
    },
    (count) => count === n,
    `the engine to watch ${n} alert(s)`,
  );
}

describe("an alert on a definition's symbol", () => {
  beforeEach(() => start());

  it("fires on Telegram and the webhook when the value crosses, naming the definition", async () => {
    const { trader, symbol, alertId } = await traderWithRatioAlert(80);
    await watching(1);
    silver(T);
    ratio(79.5, T); // the first value only records the side
    ratio(80.25, T + SECOND); // crosses above 80
    await setup.settled(server);
    await eventually(
      async () => receiver.received,
      (got) => got.length === 1,
      "the webhook POST",
      15_000,
    );
    expect(setup.alertTexts(telegram)).toEqual([
      [
        "🔔 Gold/silver Buy spread alert",
        "Spread 80.25 crossed above ⬆️ 80.00",
        "Time: 20/11/2026, 2:45:01 pm IST",
        "Notification 1 of 5",
      ].join("\n"),
    ]);
    const [post] = receiver.received;
    if (!post) throw new Error("no POST");
    expect(signatureVerifies(SECRET, post)).toBe(true);
    const body = JSON.parse(post.body);
    expect(body).toMatchObject({
      event: "alert.fired",
      alertId,
      symbol: `${symbol}_BUY`,
      // The definition's name on its own, so a receiver need not parse it out of the text.
      name: "Gold/silver",
      metric: "spread",
      threshold: 80,
      direction: "above",
      firedAt: T + SECOND,
      text: setup.alertTexts(telegram)[0],
    });
    expect(body.value).toBeCloseTo(80.25, 9);
    const history = (await trader.get("/api/alerts/history")).body.entries;
    expect(history).toEqual([
      expect.objectContaining({ alertId, symbol: `${symbol}_BUY`, state: "fired" }),
    ]);
  });

  it("is refused for another user's private symbol exactly as for an unknown one", async () => {
    const { admin, symbol } = await traderWithRatioAlert(80);
    const other = await addTrader(server, admin, "other");
    const unknown = await other.post("/api/alerts", { commodityType: "SP999_BUY", threshold: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/^commodityType must be one of GC_BUY/);
    for (const commodityType of [`${symbol}_BUY`, `${symbol}_SELL`]) {
      const refused = await other.post("/api/alerts", { commodityType, threshold: 1 });
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: unknown.status,
        body: unknown.body,
      });
    }
    // Moving an alert of theirs onto it is refused the same way, and changes nothing.
    const own = await other.post("/api/alerts", { commodityType: "GC_BUY", threshold: 1 });
    const moved = await other.put(`/api/alerts/${own.body.alert.id}`, {
      commodityType: `${symbol}_BUY`,
    });
    expect({ status: moved.status, body: moved.body }).toEqual({
      status: 400,
      body: unknown.body,
    });
    expect((await other.get("/api/alerts")).body.alerts).toEqual([
      expect.objectContaining({ commodityType: "GC_BUY" }),
    ]);
    // Not executable symbols: the definition itself, a mid-only built-in's, junk.
    for (const commodityType of [symbol, "XAU_SPOT_BUY", "sp1_buy", "GC_BUY ", 7])
      expect((await other.post("/api/alerts", { commodityType, threshold: 1 })).status).toBe(400);
    // A shared definition (an admin's) is anyone's to alert on.
    const shared = await admin.post("/api/spreads", { ...RATIO, name: "Desk ratio", shared: true });
    expect(shared.status).toBe(201);
    const onShared = await other.post("/api/alerts", {
      commodityType: `${shared.body.symbol}_SELL`,
      threshold: 1,
    });
    expect(onShared.status).toBe(200);
  });

  it("on a shared definition stops for the others when the admin makes it private", async () => {
    const { admin } = await traderWithRatioAlert(80);
    const desk = await admin.post("/api/spreads", { ...RATIO, name: "Desk ratio", shared: true });
    expect(desk.status).toBe(201);
    const other = await addTrader(server, admin, "other");
    expect((await other.put("/api/webhook", { url: receiver.url, secret: SECRET })).status).toBe(
      200,
    );
    const onDesk = await other.post("/api/alerts", {
      commodityType: `${desk.body.symbol}_BUY`,
      threshold: 80,
      webhookNotify: true,
    });
    expect(onDesk.status).toBe(200);
    await watching(2);
    const unshared = await admin.put(`/api/spreads/${desk.body.id}`, {
      ...RATIO,
      name: "Desk ratio",
      shared: false,
    });
    expect(unshared.status).toBe(200);
    // The trader's own alert stays; the other user's can no longer see the spread it is on.
    await watching(1);
    silver(T);
    ratio(79.5, T);
    ratio(80.5, T + SECOND);
    await setup.settled(server);
    expect(receiver.received.map((post) => JSON.parse(post.body).alertId)).not.toContain(
      onDesk.body.alert.id,
    );
  });

  it("is kept by a change of the definition and fires on the new formula", async () => {
    const { trader, id, symbol, alertId } = await traderWithRatioAlert(80);
    await watching(1);
    silver(T);
    ratio(79.5, T);
    await server.services.alertEngine.idle();
    // Twice the ratio: 79.5 becomes 159 — a jump made by the edit, not a crossing.
    const changed = await trader.put(`/api/spreads/${id}`, { ...RATIO, formula: "2 * g / s" });
    expect(changed.status).toBe(200);
    expect(changed.body.alertsKept).toBe(1);
    await watching(1);
    ratio(79.5, T + SECOND); // 159 on the new formula: only recorded
    ratio(39.5, T + 2 * SECOND); // 79: crosses below 80
    await setup.settled(server);
    expect(setup.alertTexts(telegram).map((t) => t.split("\n").slice(0, 2))).toEqual([
      ["🔔 Gold/silver Buy spread alert", "Spread 79.00 crossed below ⬇️ 80.00"],
    ]);
    expect((await trader.get("/api/alerts")).body.alerts).toEqual([
      expect.objectContaining({ id: alertId, commodityType: `${symbol}_BUY`, enabled: true }),
    ]);
  });

  it("goes with its definition: asked first, then deleted, and never fires again", async () => {
    const { trader, id, symbol } = await traderWithRatioAlert(80);
    await watching(1);
    silver(T);
    ratio(79.5, T);
    const asked = await trader.delete(`/api/spreads/${id}`);
    expect(asked.status).toBe(409);
    expect(asked.body.alerts).toBe(1);
    await watching(1);
    expect((await trader.delete(`/api/spreads/${id}?confirm=true`)).status).toBe(204);
    await watching(0);
    expect((await trader.get("/api/alerts")).body.alerts).toEqual([]);
    ratio(85, T + SECOND);
    ratio(75, T + 40 * SECOND);
    await setup.settled(server);
    expect(setup.alertTexts(telegram)).toEqual([]);
    expect(receiver.received).toEqual([]);
    // Its symbols are unknown now: a new alert on them is refused.
    const again = await trader.post("/api/alerts", {
      commodityType: `${symbol}_BUY`,
      threshold: 1,
    });
    expect(again.status).toBe(400);
  });

  it("stops being watched when the registry drops the definition, whoever deleted it", async () => {
    const { id } = await traderWithRatioAlert(80);
    await watching(1);
    // Straight in the store (as another instance would), then the registry's reload: the
    // engine hears it from the registry alone, no alerts.changed.
    const { store, spreads } = server.services;
    await store.spreads.delete(id, []);
    await spreads.reload();
    await watching(0);
    silver(T);
    ratio(79.5, T);
    ratio(85, T + SECOND);
    await setup.settled(server);
    expect(setup.alertTexts(telegram)).toEqual([]);
  });
});

describe("the order of a definition and its alert reaching the leader", () => {
  beforeEach(() => start());

  it("an alert read before the registry knew its symbol joins when the definition arrives", async () => {
    // As on a cluster's leader when alerts.changed is handled before spreads.changed: the
    // definition and the alert are stored, the alerts re-read, and only then the registry.
    const { trader, alertId: builtIn } = await setup.traderWithAlert(server, {});
    expect((await trader.delete(`/api/alerts/${builtIn}`)).status).toBe(200);
    const { store, spreads, alertEngine } = server.services;
    const userId = (await store.users.findByUsername("trader"))?.id as number;
    const made = await store.spreads.create(userId, { ...RATIO, shared: false }, Date.now(), {
      perOwner: 50,
      total: 1000,
    });
    if (made.kind !== "created") throw new Error("not stored");
    await store.alerts.create(
      userId,
      {
        commodityType: `SP${made.spread.id}_BUY`,
        threshold: 80,
        soundId: "beep",
        enabled: true,
        telegramNotify: true,
        maxNotifications: 5,
      },
      Date.now(),
    );
    await alertEngine.refreshUser(userId);
    expect(alertEngine.watchedCount).toBe(0);
    await spreads.reload();
    await watching(1);
    silver(T);
    ratio(79.5, T);
    ratio(80.5, T + SECOND);
    await setup.settled(server);
    expect(setup.alertTexts(telegram).map((t) => t.split("\n")[1])).toEqual([
      "Spread 80.50 crossed above ⬆️ 80.00",
    ]);
  });
});

describe("a crossing on a stale leg of a definition", () => {
  it("is held with a note naming the leg, once, and fires on fresh prices", async () => {
    // A one-second silence window, so a leg goes stale within the test.
    await start({ FEED_SILENCE_SECONDS: "1" }, 1_000);
    const { trader, alertId } = await traderWithRatioAlert(80);
    await watching(1);
    silver(T);
    ratio(79.5, T);
    await server.services.alertEngine.idle();
    const client: HttpClient = trader;
    await eventually(
      () => client.get("/api/health"),
      (res) => res.body?.prices?.fresh === false,
      "the feed to go quiet past FEED_SILENCE_SECONDS",
    );
    // Only GOLD quotes: SILVER is stale, so the crossing above 80 is held, and noted once.
    ratio(80.5, T + 40 * SECOND);
    ratio(81, T + 41 * SECOND);
    await server.services.alertEngine.idle();
    const held = await eventually(
      async () => (await trader.get("/api/alerts/history")).body.entries,
      (entries) => entries.length > 0,
      "the held History entry",
    );
    expect(held).toEqual([
      expect.objectContaining({ alertId, state: "held", direction: "above", threshold: 80 }),
    ]);
    expect(held[0].note).toMatch(/^Held: MCX SILVER quote stale \(no quote for \d+ s\)$/);
    expect(await server.services.store.outbox.list()).toEqual([]);
    // SILVER quotes again: the crossing (from 79.5, the last trusted value) fires now.
    silver(T + 42 * SECOND);
    await setup.settled(server);
    expect(setup.alertTexts(telegram).map((t) => t.split("\n")[1])).toEqual([
      "Spread 81.00 crossed above ⬆️ 80.00",
    ]);
  });
});

describe("a z-score alert on a definition", () => {
  beforeEach(() => start());

  it("fires on the definition's own statistics, on Telegram and the webhook", async () => {
    const { trader, symbol, alertId } = await traderWithRatioAlert(2, { metric: "zscore" });
    // The BUY side's closes 70 and 90 before T: mean 80, σ 10, so z = (ratio − 80) / 10.
    await server.services.store.candles.save(
      [70, 90].map((close, i) => ({
        symbol: `${symbol}_BUY`,
        timeframe: "1m",
        timestamp: T - (3 - i) * 60_000,
        open: close,
        high: close,
        low: close,
        close,
      })),
    );
    // Asking for them loads the window, as the alert form does before the alert is set.
    const stats = await trader.get(`/api/spread-stats/${symbol}_BUY`);
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ n: 2, mean: 80, std: 10 });
    await watching(1);
    silver(T);
    ratio(80, T); // z 0
    ratio(95, T + SECOND); // z 1.5: the spread moved, z did not cross 2
    ratio(105, T + 2 * SECOND); // z 2.5: fires
    await setup.settled(server);
    await eventually(
      async () => receiver.received,
      (got) => got.length === 1,
      "the webhook POST",
      15_000,
    );
    expect(setup.alertTexts(telegram).map((t) => t.split("\n").slice(0, 2))).toEqual([
      ["🔔 Gold/silver Buy z-score alert", "Z-score 2.50 crossed above ⬆️ 2.00 (spread 105.00)"],
    ]);
    const body = JSON.parse(receiver.received[0]?.body ?? "{}");
    expect(body).toMatchObject({ alertId, symbol: `${symbol}_BUY`, metric: "zscore" });
    expect(body.value).toBeCloseTo(2.5, 6);
  });
});
