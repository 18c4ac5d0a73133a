import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { crossingReplay, crossingTime } from "./crossing-replay.ts";
import { FakeTelegram } from "./fake-telegram.ts";
import { pushGold, pushOpening } from "./fakes/crossing-feed.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";
import * as setup from "./telegram-trader.ts";

let telegram: FakeTelegram;
let server: TestServer;
const dir = mkdtempSync(join(tmpdir(), "spreadwatch-telegram-"));

const telegramEnv = () => setup.telegramEnv(telegram);
const signIn = (username: string, password: string) => setup.signIn(server, username, password);
const traderWithAlert = (alert: Record<string, unknown>) => setup.traderWithAlert(server, alert);
const alertTexts = () => setup.alertTexts(telegram);
const { CHAT, settled } = setup;

// A server per test: most tests restart it on a replay of their own, and the fake Telegram's
// received list and the alert engine's counts must start empty for each.
beforeEach(async () => {
  telegram = await new FakeTelegram().start();
  server = await startTestServer({ feed: manualFeed(), env: telegramEnv() });
});
afterEach(async () => {
  await server.stop();
  await telegram.stop();
});

describe("Telegram connection", () => {
  it("stores the chat only after Telegram accepted the confirmation; test and disconnect", async () => {
    const trader = await signIn(ADMIN.username, ADMIN.password);
    telegram.refuseChat("999");
    const refused = await trader.post("/api/telegram/connect", { chatId: "999" });
    expect(refused).toMatchObject({
      status: 400,
      body: { error: "Telegram: Bad Request: chat not found" },
    });
    expect((await trader.get("/api/telegram/status")).body).toMatchObject({
      status: "success",
      connected: false,
    });

    expect(
      (await trader.post("/api/telegram/connect", { chatId: ` ${CHAT} ` })).body,
    ).toMatchObject({ status: "success" });
    expect(telegram.received[0]).toMatchObject({ token: "123456:TEST-TOKEN", chatId: CHAT });
    expect(telegram.received[0]?.text).toContain("Spreadwatch is connected");
    expect((await trader.get("/api/telegram/status")).body).toEqual({
      status: "success",
      configured: true,
      botUsername: "spreadwatch_test_bot",
      connected: true,
      chatId: CHAT,
    });
    expect((await trader.post("/api/telegram/test")).body).toEqual({ status: "success" });
    expect(telegram.textsTo(CHAT)[1]).toContain("Test message from Spreadwatch");
    expect((await trader.post("/api/telegram/disconnect")).body).toMatchObject({
      status: "success",
    });
    expect((await trader.get("/api/telegram/status")).body.connected).toBe(false);
    expect((await trader.post("/api/telegram/test")).body).toEqual({
      error: "Telegram is not connected",
    });
  });

  // The interactive deadline is 7 s; the test only waits for the 502, it does not time it.
  it.each([
    ["hangs (accepts the connection, never answers)", () => telegram.hang()],
    ["refuses connections", () => telegram.refuseConnections()],
  ])(
    "when Telegram %s, connect answers 502 and stores no link",
    async (_, goDown) => {
      const trader = await signIn(ADMIN.username, ADMIN.password);
      goDown();
      expect(await trader.post("/api/telegram/connect", { chatId: CHAT })).toMatchObject({
        status: 502,
        body: { error: "Could not reach Telegram" },
      });
      expect((await trader.get("/api/telegram/status")).body).toMatchObject({
        connected: false,
        chatId: null,
      });
    },
    30_000,
  );

  it("when Telegram hangs, a test message answers 502 too", async () => {
    const trader = await signIn(ADMIN.username, ADMIN.password);
    expect((await trader.post("/api/telegram/connect", { chatId: CHAT })).status).toBe(200);
    telegram.hang();
    expect(await trader.post("/api/telegram/test")).toMatchObject({
      status: 502,
      body: { error: "Could not reach Telegram" },
    });
    expect(telegram.unanswered).toBeGreaterThan(0);
    expect((await trader.get("/api/telegram/status")).body.connected).toBe(true);
  }, 30_000);

  it("rejects an empty or malformed chat id without calling Telegram", async () => {
    const trader = await signIn(ADMIN.username, ADMIN.password);
    expect((await trader.post("/api/telegram/connect", { chatId: "  " })).body).toEqual({
      error: "Please enter your Telegram Chat ID.",
    });
    expect((await trader.post("/api/telegram/connect", { chatId: "12ab" })).status).toBe(400);
    expect(telegram.attempts).toBe(0);
  });

  it("without a bot token every action says Telegram is not configured", async () => {
    const bare = await startTestServer({ feed: manualFeed() });
    try {
      const client = new HttpClient(bare.url);
      await client.post("/api/auth/login", ADMIN);
      expect((await client.get("/api/telegram/status")).body).toEqual({
        status: "success",
        configured: false,
        botUsername: null,
        connected: false,
        chatId: null,
      });
      for (const path of [
        "/api/telegram/connect",
        "/api/telegram/test",
        "/api/telegram/disconnect",
      ]) {
        // Only connect takes a field; the others refuse any (400 naming it).
        const res = await client.post(
          path,
          path.endsWith("/connect") ? { chatId: CHAT } : undefined,
        );
        expect(res).toMatchObject({
          status: 412,
          body: { error: "Telegram is not configured on this server" },
        });
      }
    } finally {
      await bare.stop();
    }
  });
});

describe("server-side alert engine", () => {
  it("a replay crossing the threshold 5 times sends exactly min(5, limit 3) messages, then disables the alert", async () => {
    const { alertId } = await traderWithAlert({ telegramMaxNotifications: 3 });
    server = await server.restart({
      env: {
        ...telegramEnv(),
        FEED: "replay",
        REPLAY_FILE: crossingReplay(dir, 5),
        REPLAY_SPEED: "0",
      },
    });
    await settled(server);
    const texts = alertTexts();
    expect(texts).toHaveLength(3);
    expect(texts[0]).toBe(
      [
        "🔔 Gold Buy spread alert",
        "Spread 49.95 crossed above ⬆️ 0.00",
        "Time: 20/11/2026, 2:46:00 pm IST",
        "Notification 1 of 3",
      ].join("\n"),
    );
    expect(texts[1]).toContain("Spread -50.05 crossed below ⬇️ 0.00");
    expect(texts[2]).toContain("Notification 3 of 3 — alert now disabled");
    const trader = await signIn("trader", "trader-pass-1");
    const alert = (await trader.get("/api/alerts")).body.alerts.find(
      (a: { id: number }) => a.id === alertId,
    );
    expect(alert).toMatchObject({
      enabled: false,
      telegramNotificationCount: 3,
      lastTelegramTriggered: crossingTime(3),
    });
  });

  it("a 429 with retry_after and a dropped connection are retried; each message still arrives once", async () => {
    await traderWithAlert({ telegramMaxNotifications: 2 });
    telegram.failNext({ kind: "rate-limit", retryAfter: 1 }, { kind: "drop-connection" });
    server = await server.restart({
      env: {
        ...telegramEnv(),
        FEED: "replay",
        REPLAY_FILE: crossingReplay(dir, 2),
        REPLAY_SPEED: "0",
      },
    });
    await settled(server);
    expect(alertTexts()).toHaveLength(2);
    expect(new Set(alertTexts()).size).toBe(2);
    // Confirmation + 2 alerts delivered, after 2 refused attempts.
    expect(telegram.attempts).toBe(5);
  });

  it("a 429 with a long retry_after is honoured: the row waits Telegram's time, and later rows wait behind it", async () => {
    const feed = manualFeed();
    server = await server.restart({ feed });
    await traderWithAlert({ telegramMaxNotifications: 5 });
    telegram.failNext({ kind: "rate-limit", retryAfter: 120 });
    const before = Date.now();
    pushOpening(feed);
    pushGold(feed, 1);
    const firstRow = async () => (await server.services.store.outbox.list())[0];
    const row = await eventually(
      firstRow,
      (r) => r?.attempts === 1,
      "the rate-limited attempt to be recorded",
    );
    expect(row).toMatchObject({ sentAt: null, failedAt: null });
    expect(row?.lastError).toContain("Too Many Requests");
    expect(row?.nextAttemptAt).toBeGreaterThanOrEqual(before + 120_000);
    // The confirmation, then the one rate-limited attempt: no retry before Telegram's time.
    expect(telegram.attempts).toBe(2);
    // A later firing waits behind it too (the queue keeps its order), once the pass it woke ends.
    pushGold(feed, 2);
    await server.services.alertEngine.idle();
    await server.services.sender?.idle();
    expect(await server.services.store.outbox.list()).toMatchObject([
      { attempts: 1, sentAt: null },
      { attempts: 0, sentAt: null },
    ]);
    expect(telegram.attempts).toBe(2);
  });

  it("a server restarted mid-replay sends no duplicate", async () => {
    await traderWithAlert({ telegramMaxNotifications: 5 });
    server = await server.restart({
      env: {
        ...telegramEnv(),
        FEED: "replay",
        REPLAY_FILE: crossingReplay(dir, 2, "first-half.csv"),
        REPLAY_SPEED: "0",
      },
    });
    await settled(server);
    expect(alertTexts()).toHaveLength(2);
    // The whole replay again from its start: the first two crossings were already sent.
    server = await server.restart({
      env: {
        ...telegramEnv(),
        FEED: "replay",
        REPLAY_FILE: crossingReplay(dir, 4, "whole.csv"),
        REPLAY_SPEED: "0",
      },
    });
    await settled(server);
    expect(alertTexts().map((t) => t.split("\n")[3])).toEqual([
      "Notification 1 of 5",
      "Notification 2 of 5",
      "Notification 3 of 5",
      "Notification 4 of 5",
    ]);
  });

  it("turning a user's alerts permission off stops their Telegram alerts at once; on resumes them", async () => {
    const feed = manualFeed();
    server = await server.restart({ feed });
    const { admin } = await traderWithAlert({ telegramMaxNotifications: 5 });
    pushOpening(feed);
    pushGold(feed, 1);
    await settled(server);
    expect(alertTexts()).toHaveLength(1);
    await admin.put("/api/auth/users/2/permissions", {
      permission: "alerts_enabled",
      value: false,
    });
    pushGold(feed, 2);
    pushGold(feed, 3);
    await settled(server);
    expect(alertTexts()).toHaveLength(1);
    // Given back, the permission brings the alert back to the engine without any edit.
    await admin.put("/api/auth/users/2/permissions", { permission: "alerts_enabled", value: true });
    pushGold(feed, 4);
    await settled(server);
    expect(alertTexts()).toHaveLength(2);
    expect(alertTexts()[1]).toContain("crossed below");
  });

  it("alerts without Telegram are never auto-disabled, and browser triggers never send Telegram", async () => {
    const { trader, alertId } = await traderWithAlert({ telegramNotify: false });
    server = await server.restart({
      env: {
        ...telegramEnv(),
        FEED: "replay",
        REPLAY_FILE: crossingReplay(dir, 3),
        REPLAY_SPEED: "0",
      },
    });
    const again = new HttpClient(server.url);
    await again.post("/api/auth/login", { username: "trader", password: "trader-pass-1" });
    expect((await again.post(`/api/alerts/${alertId}/trigger`)).status).toBe(200);
    await settled(server);
    expect(alertTexts()).toEqual([]);
    const alert = (await again.get("/api/alerts")).body.alerts[0];
    expect(alert).toMatchObject({
      enabled: true,
      telegramNotificationCount: 0,
      notificationCount: 1,
    });
    expect(trader).toBeDefined();
  });
});
