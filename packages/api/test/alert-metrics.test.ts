// Alert metrics, hysteresis and holds (docs/user-guide.md, "Spread alerts") on a real server:
// alerts on the live z-score and percentile, hysteresis (also across a restart), crossings held
// while a leg is stale, and the webhook outbox row. Alerts are made through POST /api/alerts;
// their metric, hysteresis and webhook flag are set through the store.
import { join } from "node:path";
import type { AlertSettings } from "@spreadwatch/db";
import { openDatabase } from "@spreadwatch/db/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DATABASE_FILE } from "../src/composition.ts";
import type { Feed } from "../src/feeds/feed.ts";
import { crossingTime } from "./crossing-replay.ts";
import { FakeTelegram } from "./fake-telegram.ts";
import { pushGoldSpread, pushLegs, storeGoldStatistics } from "./fakes/crossing-feed.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { manualFeed, startTestServer, type TestServer } from "./server.ts";
import * as setup from "./telegram-trader.ts";
import { FIXED_DAYS_ENV } from "./test-env.ts";

type ManualFeed = ReturnType<typeof manualFeed>;

let telegram: FakeTelegram;
let server: TestServer;
let feed: ManualFeed;

const T = crossingTime(0);
const SECOND = 1_000;
const MINUTE = 60_000;

// A server per test: most tests restart it on closes of their own (the z-score's window), and the
// engine's armed state, the last prices and the fake Telegram's messages must start empty.
beforeEach(async () => {
  telegram = await new FakeTelegram().start();
  feed = manualFeed();
  server = await startTestServer({
    feed,
    env: { ...FIXED_DAYS_ENV, ...setup.telegramEnv(telegram) },
  });
});
afterEach(async () => {
  await server.stop();
  await telegram.stop();
});

const legs = pushLegs;
const gold = pushGoldSpread;

/** The trader's one GC_BUY alert (threshold, limit), then the fields the form cannot send yet. */
async function alertWith(
  threshold: number,
  fields: Partial<AlertSettings>,
  limit = 5,
): Promise<{ alertId: number; userId: number }> {
  const { alertId } = await setup.traderWithAlert(server, {
    threshold,
    telegramMaxNotifications: limit,
  });
  const userId = (await server.services.store.users.findByUsername("trader"))?.id as number;
  return { alertId, userId: await configure(userId, alertId, fields) };
}

async function configure(userId: number, alertId: number, fields: Partial<AlertSettings>) {
  expect(
    await server.services.store.alerts.update(userId, alertId, fields, Date.now()),
  ).toBeTruthy();
  // What the alert routes do after a change (through the bus), awaited here.
  await server.services.alertEngine.refreshUser(userId);
  return userId;
}

/** The engine's writes done and the Telegram rows delivered (webhook rows have their own sender). */
async function settled() {
  await server.services.alertEngine.idle();
  const pending = async () =>
    (await server.services.store.outbox.list()).filter(
      (m) => m.channel === "telegram" && m.sentAt === null && m.failedAt === null,
    );
  await eventually(pending, (rows) => rows.length === 0, "the Telegram outbox to settle", 15_000);
}

/** The History rows as stored, read beside the server. */
function historyRows(of: TestServer) {
  const direct = openDatabase(join(of.dataDir, DATABASE_FILE));
  try {
    return direct.sqlite
      .prepare(
        "SELECT alert_id, symbol, metric, value, threshold, direction, state, source, note, fired_at FROM alert_firings ORDER BY id",
      )
      .all() as {
      alert_id: number;
      symbol: string;
      metric: string;
      value: number;
      threshold: number;
      direction: string;
      state: string;
      source: string;
      note: string | null;
      fired_at: number;
    }[];
  } finally {
    direct.close();
  }
}

/** GC_BUY closes −10 and +10 before T (z = spread / 10), loaded by a restart. */
async function seedStatistics() {
  await storeGoldStatistics(server.services.store, T);
  // The statistics load the stored closes when the server starts leading.
  feed = manualFeed();
  server = await server.restart({ feed });
}

describe("alert metrics", () => {
  it("a z-score alert fires once, on the z-score's crossing (not the spread's), and says z-score", async () => {
    await seedStatistics();
    const { alertId, userId } = await alertWith(2, { metric: "zscore" });
    legs(feed, T);
    gold(feed, 0, T); // z 0
    gold(feed, 15, T + SECOND); // the spread crosses 2, z (1.5) does not
    gold(feed, 25, T + 2 * SECOND); // z 2.5: fires
    gold(feed, 15, T + 3 * SECOND); // back below within the cooldown: nothing
    await settled();
    expect(setup.alertTexts(telegram)).toEqual([
      [
        "🔔 Gold Buy z-score alert",
        "Z-score 2.50 crossed above ⬆️ 2.00 (spread 25.00)",
        "Time: 20/11/2026, 2:45:02 pm IST",
        "Notification 1 of 5",
      ].join("\n"),
    ]);
    const [row] = historyRows(server);
    expect(row).toMatchObject({
      alert_id: alertId,
      symbol: "GC_BUY",
      metric: "zscore",
      threshold: 2,
      direction: "above",
      state: "fired",
      source: "server",
      fired_at: T + 2 * SECOND,
    });
    expect(row?.value).toBeCloseTo(2.5, 9);
    expect(await server.services.store.alerts.find(userId, alertId)).toMatchObject({
      serverFiringCount: 1,
      lastFiredSide: "above",
    });
  });

  it("a percentile alert fires on the exact percentile rank; without statistics nothing fires", async () => {
    await seedStatistics();
    const { alertId, userId } = await alertWith(75, { metric: "percentile" });
    // GC_SELL has no stored closes: its percentile has no value, however its spread moves.
    const sell = await server.services.store.alerts.create(
      userId,
      {
        commodityType: "GC_SELL",
        threshold: 75,
        soundId: "beep",
        enabled: true,
        telegramNotify: true,
        maxNotifications: 5,
        metric: "percentile",
      },
      Date.now(),
    );
    await server.services.alertEngine.refreshUser(userId);
    legs(feed, T);
    gold(feed, 0, T); // closes ≤ 0: −10 → 50 %
    gold(feed, 9, T + SECOND); // still 50 %
    gold(feed, 12, T + 2 * SECOND); // both closes ≤ 12 → 100 %: fires
    gold(feed, -500, T + 40 * SECOND); // GC_SELL moves a lot too, and GC_BUY falls to 0 %
    await settled();
    expect(setup.alertTexts(telegram)).toHaveLength(2);
    expect(setup.alertTexts(telegram)[0]).toContain(
      "Percentile 100.0 crossed above ⬆️ 75.0 (spread 12.00)",
    );
    expect(setup.alertTexts(telegram)[1]).toContain(
      "Percentile 0.0 crossed below ⬇️ 75.0 (spread -500.00)",
    );
    expect(historyRows(server).map((r) => [r.alert_id, r.metric, r.value])).toEqual([
      [alertId, "percentile", 100],
      [alertId, "percentile", 0],
    ]);
    expect(sell?.id).toBeDefined();
  });
});

describe("hysteresis", () => {
  /** GC_BUY values, one a minute (past the 30 s cooldown), from minute `first`. */
  function path(into: ManualFeed, spreads: number[], first: number) {
    spreads.forEach((spread, i) => {
      gold(into, spread, T + (first + i) * MINUTE);
    });
  }

  it("an oscillating spread fires once until it has moved back by h, then again", async () => {
    await alertWith(0, { hysteresis: 10 });
    legs(feed, T);
    gold(feed, -5, T);
    path(feed, [5, -5, 5, -5, 5], 1); // one firing: the first crossing above
    await settled();
    expect(setup.notificationLines(telegram)).toEqual(["Notification 1 of 5"]);
    path(feed, [-12, 5], 6); // −12 ≤ 0 − 10 re-arms (without firing); the next crossing fires
    await settled();
    const texts = setup.alertTexts(telegram);
    expect(texts).toHaveLength(2);
    expect(texts.map((t) => t.split("\n")[1])).toEqual([
      "Spread 5.00 crossed above ⬆️ 0.00",
      "Spread 5.00 crossed above ⬆️ 0.00",
    ]);
  });

  it("a restarted server knows the alert is not re-armed yet (and re-arms past the level)", async () => {
    const { alertId, userId } = await alertWith(0, { hysteresis: 10 });
    legs(feed, T);
    gold(feed, -5, T);
    path(feed, [5, -5, 5], 1);
    await settled();
    expect(setup.alertTexts(telegram)).toHaveLength(1);
    feed = manualFeed();
    server = await server.restart({ feed });
    // The stored last value is 5, not past −10: the new server starts disarmed.
    legs(feed, T + 4 * MINUTE);
    path(feed, [-5, 5, -5, 5], 4);
    await settled();
    expect(setup.alertTexts(telegram)).toHaveLength(1);
    path(feed, [-15], 8);
    await settled();
    // Restarted again, from −15 (past the re-arm level): armed, so the next crossing fires.
    feed = manualFeed();
    server = await server.restart({ feed });
    legs(feed, T + 9 * MINUTE);
    path(feed, [5], 9);
    await settled();
    expect(setup.notificationLines(telegram)).toEqual([
      "Notification 1 of 5",
      "Notification 2 of 5",
    ]);
    expect(await server.services.store.alerts.find(userId, alertId)).toMatchObject({
      lastFiredSide: "above",
      serverFiringCount: 2,
    });
  });
});

describe("held alerts", () => {
  it("a crossing on a stale leg is held with a note, once, and fires on fresh prices", async () => {
    // A one-second silence window, so a leg goes stale within the test.
    feed = manualFeed();
    const quiet: Feed & { push: ManualFeed["push"] } = Object.assign(feed, { staleAfterMs: 1_000 });
    server = await server.restart({
      feed: quiet,
      env: { ...FIXED_DAYS_ENV, ...setup.telegramEnv(telegram), FEED_SILENCE_SECONDS: "1" },
    });
    const { alertId } = await alertWith(0, {});
    legs(feed, T);
    gold(feed, -5, T);
    await server.services.alertEngine.idle();
    // Nothing for longer than the window: the server itself says its prices are stale.
    const client = new HttpClient(server.url);
    await eventually(
      () => client.get("/api/health"),
      (res) => res.body?.prices?.fresh === false,
      "the feed to go quiet past FEED_SILENCE_SECONDS",
    );
    // Only GOLD quotes: GC and USDINR are stale. Crossing above 0 is held, and noted once.
    gold(feed, 5, T + 40 * SECOND);
    gold(feed, 6, T + 41 * SECOND);
    await server.services.alertEngine.idle();
    const held = await eventually(
      async () => historyRows(server),
      (rows) => rows.length > 0,
      "the held History row",
    );
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({
      alert_id: alertId,
      state: "held",
      direction: "above",
      threshold: 0,
      fired_at: T + 40 * SECOND,
    });
    expect(held[0]?.note).toMatch(/^Held: CME GC quote stale \(no quote for \d+ s\)$/);
    expect(held[0]?.value).toBeCloseTo(5, 9);
    expect(await server.services.store.outbox.list()).toEqual([]);
    // Fresh prices on every leg: the crossing (from −5, the last trusted value) fires now.
    legs(feed, T + 42 * SECOND);
    await settled();
    expect(setup.alertTexts(telegram)).toHaveLength(1);
    expect(setup.alertTexts(telegram)[0]).toContain("Spread 6.00 crossed above ⬆️ 0.00");
    expect(historyRows(server).map((r) => [r.state, r.fired_at])).toEqual([
      ["held", T + 40 * SECOND],
      ["fired", T + 42 * SECOND],
    ]);
  });
});

describe("firing records", () => {
  it("a webhook alert gets a webhook outbox row with the contract's body, and a limit reason", async () => {
    const { alertId, userId } = await alertWith(0, { webhookNotify: true }, 1);
    const direct = openDatabase(join(server.dataDir, DATABASE_FILE));
    try {
      direct.sqlite
        .prepare(
          "INSERT INTO user_webhooks (user_id, url, secret, updated_at) VALUES (?, 'https://hooks.example/sw', 'secret', 1)",
        )
        .run(userId);
    } finally {
      direct.close();
    }
    await server.services.alertEngine.refreshUser(userId);
    legs(feed, T);
    gold(feed, -5, T);
    gold(feed, 5, T + 5 * SECOND);
    await settled();
    const rows = await server.services.store.outbox.list();
    expect(rows.map((r) => [r.channel, r.chatId])).toEqual([
      ["telegram", setup.CHAT],
      ["webhook", ""],
    ]);
    const [telegramRow, webhookRow] = rows;
    expect(webhookRow?.firingId).toBe(telegramRow?.firingId);
    expect(JSON.parse(webhookRow?.text ?? "{}")).toEqual({
      event: "alert.fired",
      firingId: webhookRow?.firingId,
      alertId,
      symbol: "GC_BUY",
      name: "Gold",
      metric: "spread",
      value: expect.closeTo(5, 9),
      threshold: 0,
      direction: "above",
      firedAt: T + 5 * SECOND,
      firedAtIst: "2026-11-20 14:45:05 IST",
      count: 1,
      limit: 1,
      text: telegramRow?.text,
    });
    expect(await server.services.store.alerts.find(userId, alertId)).toMatchObject({
      enabled: false,
      // One limit for both channels, named after them.
      disabledReason: "Telegram + Webhook limit 1 of 1 reached at 14:45 IST",
    });
  });
});
