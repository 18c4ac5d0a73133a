import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ResolvedAddress } from "../src/webhooks/webhook-target.ts";
import { FakeTelegram } from "./fake-telegram.ts";
import { addTrader, signIn } from "./fakes/signed-in-trader.ts";
import type { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";
import { CHAT, telegramEnv } from "./telegram-trader.ts";

// Every change that decides whether a user's alerts fire is announced on the bus (the alert
// engine of every instance re-reads that user's alerts), once per successful call, for the user
// it changed; a refused call and a read announce nothing. The in-process bus delivers in the
// publisher's call stack, so what a request announced is seen by the time it has answered.

let telegram: FakeTelegram;
let server: TestServer;
let admin: HttpClient;
let trader: HttpClient;
let announced: number[];
const TRADER = 2;
const VIEWER = 3;

/** The user ids announced since the last call. */
function take(): number[] {
  return announced.splice(0);
}

beforeEach(async () => {
  telegram = await new FakeTelegram().start();
  server = await startTestServer({ feed: manualFeed(), env: telegramEnv(telegram) });
  server.services.webhooks.resolve = async (): Promise<ResolvedAddress[]> => [
    { address: "93.184.216.34", family: 4 },
  ];
  admin = await signIn(server, ADMIN.username, ADMIN.password);
  trader = await addTrader(server, admin, "trader");
  await admin.post("/api/auth/users", { username: "viewer", password: "viewer-pass-1" });
  announced = [];
  server.services.bus.subscribe("alerts.changed", ({ userId }) => announced.push(userId));
});
afterEach(async () => {
  await server.stop();
  await telegram.stop();
});

describe("alerts.changed", () => {
  it("is announced for the trader's own alert changes, and not for reads, triggers or refusals", async () => {
    expect(
      (await trader.post("/api/alerts", { commodityType: "GC_BUY", threshold: 5 })).status,
    ).toBe(200);
    expect(take()).toEqual([TRADER]);
    expect((await trader.put("/api/alerts/1", { enabled: false })).status).toBe(200);
    expect(take()).toEqual([TRADER]);

    await trader.get("/api/alerts");
    await trader.get("/api/alerts/history");
    expect((await trader.post("/api/alerts/1/trigger", {})).status).toBe(200);
    expect((await trader.put("/api/alerts/99", { enabled: true })).status).toBe(404);
    expect((await trader.put("/api/alerts/1", { threshold: "high" })).status).toBe(400);
    expect((await trader.delete("/api/alerts/99")).status).toBe(404);
    // Another user's alert is not found, and the stranger's refused call changes nothing.
    expect((await admin.delete("/api/alerts/1")).status).toBe(404);
    expect(take()).toEqual([]);

    expect((await trader.delete("/api/alerts/1")).status).toBe(200);
    expect(take()).toEqual([TRADER]);
  });

  it("is announced when a channel is linked or unlinked, not when Telegram refused", async () => {
    telegram.refuseChat("999");
    expect((await trader.post("/api/telegram/connect", { chatId: "999" })).status).toBe(400);
    expect((await trader.post("/api/telegram/test")).status).toBe(400);
    expect(take()).toEqual([]);
    expect((await trader.post("/api/telegram/connect", { chatId: CHAT })).status).toBe(200);
    expect(take()).toEqual([TRADER]);
    expect((await trader.post("/api/telegram/disconnect")).status).toBe(200);
    expect(take()).toEqual([TRADER]);

    const hook = { url: "https://hooks.example.com/a", secret: "trader-secret-0123456789" };
    expect((await trader.put("/api/webhook", { ...hook, url: "ftp://x" })).status).toBe(400);
    await trader.get("/api/webhook");
    expect(take()).toEqual([]);
    expect((await trader.put("/api/webhook", hook)).status).toBe(200);
    expect(take()).toEqual([TRADER]);
    expect((await trader.delete("/api/webhook")).status).toBe(200);
    expect(take()).toEqual([TRADER]);
  });

  it("names the user an admin changed, not the admin", async () => {
    const permission = { permission: "alerts_enabled", value: true };
    expect((await admin.put(`/api/auth/users/${VIEWER}/permissions`, permission)).status).toBe(200);
    expect(take()).toEqual([VIEWER]);

    expect((await trader.put(`/api/auth/users/${VIEWER}/permissions`, permission)).status).toBe(
      403,
    );
    expect((await admin.put("/api/auth/users/404/permissions", permission)).status).toBe(404);
    expect((await admin.delete("/api/auth/users/404")).status).toBe(404);
    expect((await admin.delete("/api/auth/users/1")).status).toBe(400);
    expect(take()).toEqual([]);

    expect((await admin.delete(`/api/auth/users/${VIEWER}`)).status).toBe(200);
    expect(take()).toEqual([VIEWER]);
  });
});
