import { describe, expect, it } from "vitest";
import type { Alert, AlertSettings } from "../alerts.ts";
import { STORE_KINDS, useStore } from "../testing/stores.ts";
import type { Store } from "./store.ts";

const settings: AlertSettings = {
  commodityType: "GOLD_SPREAD",
  threshold: 1250.5,
  soundId: "beep",
  enabled: true,
  telegramNotify: true,
  maxNotifications: 2,
};

/** The alert a create below its limit returns. */
async function created(pending: Promise<Alert | undefined>): Promise<Alert> {
  const alert = await pending;
  if (!alert) throw new Error("expected the alert to be created");
  return alert;
}

/** A user allowed Telegram alerts with a linked chat: whose alerts the engine watches. */
async function watchedUser(store: Store, username: string) {
  const user = await store.users.create({ username, passwordHash: "h", alertsEnabled: true });
  await store.telegramLinks.save(user.id, `chat-${username}`, 1);
  return user;
}

describe.each(STORE_KINDS)("alerts (%s)", (kind) => {
  const current = useStore(kind);

  it("creates, lists, finds, updates and deletes only the owner's alerts", async () => {
    const { store } = current();
    const alice = await watchedUser(store, "alice");
    const bob = await watchedUser(store, "bob");
    const alert = await store.alerts.create(alice.id, settings, 100);
    expect(alert).toEqual({
      ...settings,
      id: alert?.id,
      userId: alice.id,
      direction: "reaches",
      telegramNotificationCount: 0,
      notificationCount: 0,
      lastTriggered: null,
      lastTelegramTriggered: null,
      metric: "spread",
      hysteresis: null,
      webhookNotify: false,
      lastFiredSide: null,
      disabledReason: null,
      createdAt: 100,
      updatedAt: 100,
    });
    const id = alert?.id as number;
    expect(await store.alerts.listByUser(alice.id)).toEqual([alert]);
    expect(await store.alerts.countByUser(alice.id)).toBe(1);
    expect(await store.alerts.find(bob.id, id)).toBeUndefined();
    expect(await store.alerts.update(bob.id, id, { threshold: 1 }, 200)).toBeUndefined();
    expect(await store.alerts.delete(bob.id, id)).toBe(false);
    expect(await store.alerts.update(alice.id, id, { threshold: 1300 }, 200)).toMatchObject({
      threshold: 1300,
      updatedAt: 200,
    });
    expect(await store.alerts.delete(alice.id, id)).toBe(true);
    expect(await store.alerts.find(alice.id, id)).toBeUndefined();
  });

  it("never lets parallel creates overshoot the per-user limit", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    const alice = await watchedUser(store, "alice");
    const made = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? other : store).alerts.create(alice.id, settings, 1, 3),
      ),
    );
    expect(made.filter(Boolean)).toHaveLength(3);
    expect(await store.alerts.countByUser(alice.id)).toBe(3);
  });

  it("re-enabling an alert resets its Telegram count", async () => {
    const { store } = current();
    const alice = await watchedUser(store, "alice");
    const { id } = await created(
      store.alerts.create(alice.id, { ...settings, maxNotifications: 1 }, 1),
    );
    const [fired] = await store.alerts.recordTelegramFirings([
      { alertId: id, at: 50, now: 60, text: () => "crossed" },
    ]);
    expect(fired?.alert).toMatchObject({ enabled: false, telegramNotificationCount: 1 });
    expect(await store.alerts.update(alice.id, id, { enabled: true }, 70)).toMatchObject({
      enabled: true,
      telegramNotificationCount: 0,
    });
  });

  it("counts parallel browser triggers without losing one", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    const alice = await watchedUser(store, "alice");
    const { id } = await created(store.alerts.create(alice.id, settings, 1));
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? other : store).alerts.recordBrowserTrigger(alice.id, id, 100 + i),
      ),
    );
    expect((await store.alerts.find(alice.id, id))?.notificationCount).toBe(10);
    expect(await store.alerts.recordBrowserTrigger(alice.id, 999, 1)).toBeUndefined();
  });

  it("watches only enabled Telegram alerts of permitted users with a chat", async () => {
    const { store } = current();
    const alice = await watchedUser(store, "alice");
    const noChat = await store.users.create({
      username: "nochat",
      passwordHash: "h",
      alertsEnabled: true,
    });
    const barred = await watchedUser(store, "barred");
    await store.users.setPermission(barred.id, "alerts_enabled", false);
    const watched = await created(store.alerts.create(alice.id, settings, 1));
    await store.alerts.create(alice.id, { ...settings, enabled: false }, 1);
    await store.alerts.create(alice.id, { ...settings, telegramNotify: false }, 1);
    await store.alerts.create(noChat.id, settings, 1);
    await store.alerts.create(barred.id, settings, 1);
    expect(await store.alerts.listWatched()).toEqual([{ ...watched, chatId: "chat-alice" }]);
    expect(await store.alerts.listWatched(alice.id)).toHaveLength(1);
    expect(await store.alerts.listWatched(noChat.id)).toEqual([]);
  });

  it("records firings with their outbox rows, disables at the limit, skips what cannot send", async () => {
    const { store } = current();
    const alice = await watchedUser(store, "alice");
    const a = await created(store.alerts.create(alice.id, settings, 1));
    const off = await created(store.alerts.create(alice.id, { ...settings, enabled: false }, 1));
    const text = (alert: { telegramNotificationCount: number }) =>
      `fired ${alert.telegramNotificationCount}`;
    const marks = [{ symbol: "GOLD_SPREAD", spread: 1251, at: 500 }];
    const first = await store.alerts.recordTelegramFirings(
      [
        { alertId: a.id, at: 500, now: 510, text },
        { alertId: off.id, at: 500, now: 510, text },
        { alertId: 999, at: 500, now: 510, text },
      ],
      marks,
    );
    expect(first[0]?.alert).toMatchObject({
      telegramNotificationCount: 1,
      lastTelegramTriggered: 500,
      enabled: true,
      updatedAt: 510,
    });
    expect(first.slice(1)).toEqual([undefined, undefined]);
    expect(await store.spreadMarks.list()).toEqual(marks);
    const [second] = await store.alerts.recordTelegramFirings([
      { alertId: a.id, at: 600, now: 610, text },
    ]);
    expect(second?.alert).toMatchObject({ telegramNotificationCount: 2, enabled: false });
    const [third] = await store.alerts.recordTelegramFirings([
      { alertId: a.id, at: 700, now: 710, text },
    ]);
    expect(third).toBeUndefined();
    const outbox = await store.outbox.list();
    expect(outbox.map((m) => [m.id, m.alertId, m.chatId, m.text, m.nextAttemptAt])).toEqual([
      [first[0]?.outboxId, a.id, "chat-alice", "fired 1", 510],
      [second?.outboxId, a.id, "chat-alice", "fired 2", 610],
    ]);
  });

  it("the same alert fired twice in one batch counts twice and stops at its limit", async () => {
    const { store } = current();
    const alice = await watchedUser(store, "alice");
    const a = await created(store.alerts.create(alice.id, settings, 1));
    const text = (alert: Alert) => `${alert.telegramNotificationCount}/${alert.enabled}`;
    const results = await store.alerts.recordTelegramFirings([
      { alertId: a.id, at: 10, now: 11, text },
      { alertId: a.id, at: 20, now: 21, text },
      { alertId: a.id, at: 30, now: 31, text },
    ]);
    expect(results.map((r) => r && [r.alert.telegramNotificationCount, r.alert.enabled])).toEqual([
      [1, true],
      [2, false],
      undefined,
    ]);
    expect((await store.outbox.list()).map((m) => m.text)).toEqual(["1/true", "2/false"]);
    expect(await store.alerts.find(alice.id, a.id)).toMatchObject({
      telegramNotificationCount: 2,
      enabled: false,
      lastTelegramTriggered: 20,
      updatedAt: 21,
    });
  });

  it("rolls back every firing of the quote when one fails", async () => {
    const { store } = current();
    const alice = await watchedUser(store, "alice");
    const a = await created(store.alerts.create(alice.id, settings, 1));
    const b = await created(store.alerts.create(alice.id, settings, 1));
    await expect(
      store.alerts.recordTelegramFirings([
        { alertId: a.id, at: 1, now: 1, text: () => "ok" },
        {
          alertId: b.id,
          at: 1,
          now: 1,
          text: () => {
            throw new Error("message could not be built");
          },
        },
      ]),
    ).rejects.toThrow("message could not be built");
    expect((await store.alerts.find(alice.id, a.id))?.telegramNotificationCount).toBe(0);
    expect(await store.outbox.list()).toEqual([]);
  });
});
