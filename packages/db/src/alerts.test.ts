import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createAlert,
  findUserAlert,
  listUserAlerts,
  listWatchedAlerts,
  recordBrowserTrigger,
  recordFirings,
  updateAlert,
} from "./alerts.ts";
import {
  deleteTelegramLink,
  dueOutboxMessages,
  listOutbox,
  markOutboxSent,
  saveTelegramLink,
} from "./telegram.ts";
import { createTestDatabase, type TestDatabase } from "./testing.ts";
import { createUser, deleteUser, setUserPermission } from "./users.ts";

let t: TestDatabase;
let alice: number;
let bob: number;
const settings = {
  commodityType: "GC_BUY",
  threshold: 100,
  soundId: "beep",
  enabled: true,
  telegramNotify: true,
  maxNotifications: 2,
};

beforeEach(() => {
  t = createTestDatabase();
  alice = createUser(t.db, { username: "alice", passwordHash: "x", alertsEnabled: true }).id;
  bob = createUser(t.db, { username: "bob", passwordHash: "x", alertsEnabled: true }).id;
  saveTelegramLink(t.db, alice, "1001", 1);
});
afterEach(() => t.cleanup());

const fire = (alertId: number, at: number) =>
  recordFirings(t.db, [
    {
      alertId,
      symbol: "GC_BUY",
      metric: "spread",
      value: 101,
      threshold: 100,
      direction: "above",
      at,
      now: at,
      text: (a) => `alert ${a.id} #${a.telegramNotificationCount}`,
      webhookBody: () => "{}",
    },
  ])[0];

describe("alerts", () => {
  it("belong to their user: another user's id is not found", () => {
    const a = createAlert(t.db, alice, settings, 10);
    expect(findUserAlert(t.db, alice, a.id)?.threshold).toBe(100);
    expect(findUserAlert(t.db, bob, a.id)).toBeUndefined();
    expect(updateAlert(t.db, bob, a.id, { threshold: 1 }, 11)).toBeUndefined();
    expect(listUserAlerts(t.db, bob)).toEqual([]);
  });

  it("a Telegram firing counts, writes one outbox row, and disables the alert at its limit", () => {
    const a = createAlert(t.db, alice, settings, 10);
    const first = fire(a.id, 1_000);
    expect(first?.alert).toMatchObject({
      telegramNotificationCount: 1,
      lastTelegramTriggered: 1_000,
      enabled: true,
    });
    const second = fire(a.id, 40_000);
    expect(second?.alert).toMatchObject({ telegramNotificationCount: 2, enabled: false });
    expect(fire(a.id, 80_000)).toBeUndefined();
    expect(listOutbox(t.db).map((m) => [m.chatId, m.text])).toEqual([
      ["1001", `alert ${a.id} #1`],
      ["1001", `alert ${a.id} #2`],
    ]);
  });

  it("re-enabling resets the Telegram count; browser triggers are counted apart", () => {
    const a = createAlert(t.db, alice, { ...settings, maxNotifications: 1 }, 10);
    fire(a.id, 1_000);
    expect(findUserAlert(t.db, alice, a.id)).toMatchObject({
      enabled: false,
      telegramNotificationCount: 1,
    });
    expect(updateAlert(t.db, alice, a.id, { enabled: true }, 2_000)).toMatchObject({
      enabled: true,
      telegramNotificationCount: 0,
    });
    expect(recordBrowserTrigger(t.db, alice, a.id, 3_000)).toMatchObject({
      notificationCount: 1,
      lastTriggered: 3_000,
      telegramNotificationCount: 0,
    });
  });

  it("watches only enabled Telegram alerts of permitted users with a linked chat", () => {
    const watched = createAlert(t.db, alice, settings, 10);
    createAlert(t.db, alice, { ...settings, telegramNotify: false }, 10);
    createAlert(t.db, alice, { ...settings, enabled: false }, 10);
    createAlert(t.db, bob, settings, 10); // bob has no chat
    expect(listWatchedAlerts(t.db).map((a) => [a.id, a.chatId])).toEqual([[watched.id, "1001"]]);
    setUserPermission(t.db, alice, "alerts_enabled", false);
    expect(listWatchedAlerts(t.db)).toEqual([]);
    expect(fire(watched.id, 5)).toBeUndefined();
    setUserPermission(t.db, alice, "alerts_enabled", true);
    deleteTelegramLink(t.db, alice);
    expect(listWatchedAlerts(t.db, alice)).toEqual([]);
  });

  it("delivered messages leave the queue; deleting a user removes their alerts, link and queue", () => {
    const a = createAlert(t.db, alice, settings, 10);
    const fired = fire(a.id, 1_000);
    expect(dueOutboxMessages(t.db, 1_000, 10)).toHaveLength(1);
    markOutboxSent(t.db, fired?.outbox[0]?.id as number, 1_001);
    expect(dueOutboxMessages(t.db, 2_000, 10)).toEqual([]);
    fire(a.id, 50_000);
    deleteUser(t.db, alice);
    expect(listUserAlerts(t.db, alice)).toEqual([]);
    expect(listOutbox(t.db)).toEqual([]);
  });
});
