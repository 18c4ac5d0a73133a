import { expect } from "vitest";
import type { FakeTelegram } from "./fake-telegram.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, type TestServer } from "./server.ts";

/** The trader's Telegram chat in every Telegram test. */
export const CHAT = "4242";

export const telegramEnv = (telegram: FakeTelegram) => ({
  TELEGRAM_BOT_TOKEN: "123456:TEST-TOKEN",
  TELEGRAM_BOT_USERNAME: "spreadwatch_test_bot",
  TELEGRAM_API_ROOT: telegram.apiRoot,
});

export async function signIn(server: TestServer, username: string, password: string) {
  const client = new HttpClient(server.url);
  expect((await client.post("/api/auth/login", { username, password })).status).toBe(200);
  return client;
}

/** A trader with alerts on, Telegram connected to CHAT, and one GC_BUY alert at threshold 0. */
export async function traderWithAlert(server: TestServer, alert: Record<string, unknown>) {
  const admin = await signIn(server, ADMIN.username, ADMIN.password);
  await admin.post("/api/auth/users", {
    username: "trader",
    password: "trader-pass-1",
    alerts_enabled: true,
  });
  const trader = await signIn(server, "trader", "trader-pass-1");
  expect((await trader.post("/api/telegram/connect", { chatId: CHAT })).status).toBe(200);
  const created = await trader.post("/api/alerts", {
    commodityType: "GC_BUY",
    threshold: 0,
    telegramNotify: true,
    ...alert,
  });
  expect(created.status).toBe(200);
  return { admin, trader, alertId: created.body.alert.id as number };
}

/**
 * Waits, with a deadline, until every queued Telegram message was delivered or given up on.
 * The alert engine's writes for the quotes pushed so far are awaited first, so every firing
 * is in the outbox before it is looked at.
 */
export async function settled(server: TestServer) {
  await server.services.alertEngine.idle();
  const pending = async () =>
    (await server.services.store.outbox.list()).filter(
      (m) => m.sentAt === null && m.failedAt === null,
    );
  await eventually(pending, (rows) => rows.length === 0, "the Telegram outbox to settle", 15_000);
}

/** The alert messages CHAT received, in order (the connection message left out). */
export const alertTexts = (telegram: FakeTelegram) =>
  telegram.textsTo(CHAT).filter((t) => t.startsWith("🔔"));

/** "Notification k of n", the line that tells one alert message from another. */
export const notificationLines = (telegram: FakeTelegram) =>
  alertTexts(telegram).map((t) => t.split("\n")[3]);
