import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { signIn, startWithTrader } from "./fakes/signed-in-trader.ts";
import type { HttpClient } from "./http-client.ts";
import { ADMIN, type TestServer } from "./server.ts";

let server: TestServer;
let admin: HttpClient;
let trader: HttpClient;

// A fresh server per test: the tests assert alert ids and user 2's permissions by id.
beforeEach(async () => {
  ({ server, admin, trader } = await startWithTrader());
  await admin.post("/api/auth/users", { username: "viewer", password: "viewer-pass-1" });
});
afterEach(() => server.stop());

const list = async (client = trader) => (await client.get("/api/alerts")).body.alerts;

describe("alert CRUD over the spec's REST paths", () => {
  it("creates from the modal's shape (maxNotifications null = 1) and the panel's (telegramMaxNotifications)", async () => {
    const modal = await trader.post("/api/alerts", {
      commodityType: "GC_BUY",
      threshold: 125.5,
      soundId: "chime",
      telegramNotify: true,
      direction: "reaches",
      enabled: true,
      maxNotifications: null,
    });
    expect(modal.status).toBe(200);
    expect(modal.body).toEqual({
      status: "success",
      alert: {
        id: 1,
        commodityType: "GC_BUY",
        threshold: 125.5,
        direction: "reaches",
        soundId: "chime",
        enabled: true,
        telegramNotify: true,
        telegramMaxNotifications: 1,
        telegramNotificationCount: 0,
        maxNotifications: null,
        notificationCount: 0,
        lastTriggered: null,
        lastTelegramTriggered: null,
        metric: "spread",
        hysteresis: null,
        webhookNotify: false,
        disabledReason: null,
      },
    });
    const panel = await trader.post("/api/alerts", {
      commodityType: "HG_SELL",
      threshold: -0.25,
      soundId: "coin",
      telegramNotify: true,
      enabled: true,
      telegramMaxNotifications: 4,
    });
    expect(panel.body.alert).toMatchObject({
      telegramMaxNotifications: 4,
      maxNotifications: 4,
      direction: "reaches",
    });
    expect((await list()).map((a: { id: number }) => a.id)).toEqual([1, 2]);
  });

  it("updates all fields or just enabled; deletes; records browser triggers", async () => {
    await trader.post("/api/alerts", { commodityType: "SI_SELL", threshold: 10 });
    const edited = await trader.put("/api/alerts/1", {
      threshold: -20,
      soundId: "bell",
      maxNotifications: 3,
      telegramNotify: true,
    });
    expect(edited.body.alert).toMatchObject({
      threshold: -20,
      soundId: "bell",
      telegramMaxNotifications: 3,
      maxNotifications: 3,
    });
    expect((await trader.put("/api/alerts/1", { enabled: false })).body.alert.enabled).toBe(false);
    const triggered = await trader.post("/api/alerts/1/trigger");
    expect(triggered.body.alert).toMatchObject({
      notificationCount: 1,
      telegramNotificationCount: 0,
    });
    expect(triggered.body.alert.lastTriggered).toBeGreaterThan(Date.now() - 60_000);
    expect((await trader.delete("/api/alerts/1")).body).toEqual({ status: "success" });
    expect(await list()).toEqual([]);
  });

  it("another user's alert is 404 on every path; a user without the permission gets 403", async () => {
    await trader.post("/api/alerts", { commodityType: "GC_BUY", threshold: 1 });
    const other = await signIn(server, ADMIN.username, ADMIN.password);
    for (const res of [
      await other.put("/api/alerts/1", { enabled: false }),
      await other.delete("/api/alerts/1"),
      await other.post("/api/alerts/1/trigger"),
    ]) {
      expect(res).toMatchObject({ status: 404, body: { error: "Alert not found" } });
    }
    expect(await list(other)).toEqual([]);
    const viewer = await signIn(server, "viewer", "viewer-pass-1");
    const denied = await viewer.get("/api/alerts");
    expect(denied).toMatchObject({
      status: 403,
      body: { error: "Alerts are not enabled for your account." },
    });
    expect((await list())[0].enabled).toBe(true);
  });

  it("taking the permission away closes every alert path at once", async () => {
    await admin.put("/api/auth/users/2/permissions", {
      permission: "alerts_enabled",
      value: false,
    });
    expect((await trader.get("/api/alerts")).status).toBe(403);
    expect(
      (await trader.post("/api/alerts", { commodityType: "GC_BUY", threshold: 1 })).status,
    ).toBe(403);
  });

  it("caps a user at 100 alerts with a clear error", async () => {
    for (let i = 0; i < 100; i++) {
      expect(
        (await trader.post("/api/alerts", { commodityType: "CL_BUY", threshold: i })).status,
      ).toBe(200);
    }
    const over = await trader.post("/api/alerts", { commodityType: "CL_BUY", threshold: 101 });
    expect(over).toMatchObject({
      status: 400,
      body: { error: "You can have at most 100 alerts. Delete one to add another." },
    });
    expect(await list()).toHaveLength(100);
  });
});

describe("bad alert payloads get 400 with { error } and store nothing", () => {
  const valid = { commodityType: "GC_BUY", threshold: 1 };
  it.each([
    [
      "unknown commodity",
      { ...valid, commodityType: "XX_BUY" },
      /commodityType must be one of GC_BUY/,
    ],
    ["threshold as text", { ...valid, threshold: "12" }, "threshold must be a number"],
    ["threshold missing", { commodityType: "GC_BUY" }, "threshold must be a number"],
    ["unknown sound", { ...valid, soundId: "trumpet" }, /soundId must be one of beep/],
    [
      "limit 0",
      { ...valid, telegramMaxNotifications: 0 },
      "telegramMaxNotifications: must be a whole number from 1 to 5",
    ],
    [
      "limit 6",
      { ...valid, maxNotifications: 6 },
      "maxNotifications: must be a whole number from 1 to 5",
    ],
    [
      "limit 2.5",
      { ...valid, maxNotifications: 2.5 },
      "maxNotifications: must be a whole number from 1 to 5",
    ],
    ["direction", { ...valid, direction: "crosses" }, 'direction must be "reaches"'],
    ["enabled as text", { ...valid, enabled: "yes" }, "enabled must be true or false"],
  ])("%s", async (_name, body, error) => {
    const res = await trader.post("/api/alerts", body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(error);
    expect(await list()).toEqual([]);
  });

  it("an update with a bad field changes nothing", async () => {
    await trader.post("/api/alerts", valid);
    const res = await trader.put("/api/alerts/1", { threshold: 5, soundId: "trumpet" });
    expect(res.status).toBe(400);
    expect((await list())[0].threshold).toBe(1);
    expect((await trader.put("/api/alerts/abc", { enabled: false })).status).toBe(404);
  });
});
