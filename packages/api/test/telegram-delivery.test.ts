import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { crossingReplay, crossingTime, HIGH_ASK, LOW_ASK } from "./crossing-replay.ts";
import { FakeTelegram } from "./fake-telegram.ts";
import { until } from "./fakes/wait.ts";
import { manualFeed, runMain, startTestServer, type TestServer } from "./server.ts";
import { notificationLines, settled, telegramEnv, traderWithAlert } from "./telegram-trader.ts";

// The delivery rule docs/operations.md states: at-least-once, and only the message in flight when
// the server stops can arrive twice. Telegram "loses the reply" of one message here: it delivers it
// and never answers, the one case where the server cannot know.

let telegram: FakeTelegram;
let server: TestServer;
const dir = mkdtempSync(join(tmpdir(), "spreadwatch-delivery-"));

beforeEach(async () => {
  telegram = await new FakeTelegram().start();
  server = await startTestServer({ feed: manualFeed(), env: telegramEnv(telegram) });
});
afterEach(async () => {
  await server.stop();
  await telegram.stop();
});

describe("Telegram delivery across a crash", () => {
  it("kill -9 with a message in flight: the delivered ones are never resent, the one in flight is resent once", async () => {
    await traderWithAlert(server, { telegramMaxNotifications: 5 });
    await server.close();
    // Alert 1 is answered; alert 2 is delivered but its answer never comes.
    telegram.failNext({ kind: "ok" }, { kind: "lost-reply" });
    const main = runMain({
      ...telegramEnv(telegram),
      DATA_DIR: server.dataDir,
      FEED: "replay",
      REPLAY_FILE: crossingReplay(dir, 3),
      REPLAY_SPEED: "0",
    });
    try {
      await until(() => telegram.unanswered === 1, "alert 2 to be in flight", 30_000);
      // One at a time: alert 3 waits behind the message in flight.
      expect(notificationLines(telegram)).toEqual(["Notification 1 of 5", "Notification 2 of 5"]);
    } finally {
      main.child.kill("SIGKILL");
      await main.exited;
    }

    server = await startTestServer({
      dataDir: server.dataDir,
      feed: manualFeed(),
      env: telegramEnv(telegram),
    });
    await settled(server);
    expect(notificationLines(telegram)).toEqual([
      "Notification 1 of 5",
      "Notification 2 of 5",
      "Notification 2 of 5",
      "Notification 3 of 5",
    ]);
    expect((await server.services.store.outbox.list()).every((m) => m.sentAt !== null)).toBe(true);
  }, 60_000);

  it("a stop with a message in flight aborts it after the grace; the next start resends only that one", async () => {
    const feed = manualFeed();
    server = await server.restart({ feed });
    await traderWithAlert(server, { telegramMaxNotifications: 5 });
    telegram.failNext({ kind: "ok" }, { kind: "lost-reply" });
    feed.push({ source: "fx", key: "USDINR", price: 84, ts: crossingTime(0) });
    feed.push({ source: "cme", key: "GC", bid: 2000, ask: 2000.5, ts: crossingTime(0) });
    for (let k = 0; k <= 3; k++) {
      const ask = k % 2 === 1 ? HIGH_ASK : LOW_ASK;
      feed.push({ source: "mcx", key: "GOLD", bid: ask - 20, ask, ts: crossingTime(k) });
    }
    await until(() => telegram.unanswered === 1, "alert 2 to be in flight");

    server = await server.restart();
    await settled(server);
    expect(notificationLines(telegram)).toEqual([
      "Notification 1 of 5",
      "Notification 2 of 5",
      "Notification 2 of 5",
      "Notification 3 of 5",
    ]);
  }, 30_000);
});
