import { describe, expect, it } from "vitest";
import { STORE_KINDS, useStore } from "../testing/stores.ts";
import type { Store } from "./store.ts";
import type { Alert, AlertFiring, AlertSettings } from "./types.ts";

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

/** A firing of `alertId` at quote time `at` (spread 1251 crossing above 1250.5). */
function firing(alertId: number, at: number, extra: Partial<AlertFiring> = {}): AlertFiring {
  return {
    alertId,
    symbol: "GOLD_SPREAD",
    metric: "spread",
    value: 1251,
    threshold: 1250.5,
    direction: "above",
    at,
    now: at + 10,
    text: (alert) => `fired ${alert.serverFiringCount}`,
    webhookBody: (alert, firingId) => JSON.stringify({ firingId, count: alert.serverFiringCount }),
    ...extra,
  };
}

// 2026-11-23 08:32:05 UTC = 14:02:05 IST.
const AT_1402_IST = Date.UTC(2026, 10, 23, 8, 32, 5);

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
      serverFiringCount: 0,
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
    const [fired] = await store.alerts.recordFirings([firing(id, 50)]);
    expect(fired?.alert).toMatchObject({ enabled: false, serverFiringCount: 1 });
    expect(await store.alerts.update(alice.id, id, { enabled: true }, 70)).toMatchObject({
      enabled: true,
      serverFiringCount: 0,
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
    expect(await store.alerts.listWatched()).toEqual([
      { ...watched, chatId: "chat-alice", webhook: false },
    ]);
    expect(await store.alerts.listWatched(alice.id)).toHaveLength(1);
    expect(await store.alerts.listWatched(noChat.id)).toEqual([]);
  });

  it("watches webhook alerts of users with a webhook, with or without Telegram", async () => {
    const { store, sql } = current();
    const alice = await watchedUser(store, "alice");
    const carol = await store.users.create({
      username: "carol",
      passwordHash: "h",
      alertsEnabled: true,
    });
    await sql(
      `INSERT INTO user_webhooks (user_id, url, secret, updated_at) VALUES (${carol.id}, 'https://hook.example/a', 's', 1)`,
    );
    const both = await created(
      store.alerts.create(alice.id, { ...settings, webhookNotify: true }, 1),
    );
    const hookOnly = await created(
      store.alerts.create(carol.id, { ...settings, telegramNotify: false, webhookNotify: true }, 1),
    );
    // Telegram on but carol has no chat, webhook off: nothing usable.
    await store.alerts.create(carol.id, settings, 1);
    expect((await store.alerts.listWatched()).map((a) => [a.id, a.chatId, a.webhook])).toEqual([
      [both.id, "chat-alice", false],
      [hookOnly.id, null, true],
    ]);
  });

  it("records firings with their History and outbox rows, disables at the limit with a reason", async () => {
    const { store } = current();
    const alice = await watchedUser(store, "alice");
    const a = await created(store.alerts.create(alice.id, settings, 1));
    const off = await created(store.alerts.create(alice.id, { ...settings, enabled: false }, 1));
    const marks = [
      { symbol: "GOLD_SPREAD", value: 1251, at: 500 },
      { symbol: "GOLD_SPREAD|zscore", value: 2.1, at: 500 },
    ];
    const first = await store.alerts.recordFirings(
      [firing(a.id, 500), firing(off.id, 500), firing(999, 500)],
      marks,
    );
    expect(first[0]?.alert).toMatchObject({
      serverFiringCount: 1,
      lastTelegramTriggered: 500,
      lastFiredSide: "above",
      enabled: true,
      disabledReason: null,
      updatedAt: 510,
    });
    expect(first.slice(1)).toEqual([undefined, undefined]);
    expect(await store.spreadMarks.list()).toEqual(marks);
    const [second] = await store.alerts.recordFirings([
      firing(a.id, AT_1402_IST, { direction: "below", value: 1250 }),
    ]);
    const reason = "Telegram limit 2 of 2 reached at 14:02 IST";
    expect(second?.alert).toMatchObject({
      serverFiringCount: 2,
      enabled: false,
      lastFiredSide: "below",
      disabledReason: reason,
    });
    expect(await store.alerts.find(alice.id, a.id)).toMatchObject({ disabledReason: reason });
    const [third] = await store.alerts.recordFirings([firing(a.id, AT_1402_IST + 60_000)]);
    expect(third).toBeUndefined();
    const outbox = await store.outbox.list();
    expect(
      outbox.map((m) => [
        m.id,
        m.alertId,
        m.channel,
        m.firingId,
        m.chatId,
        m.text,
        m.nextAttemptAt,
      ]),
    ).toEqual([
      [first[0]?.outbox[0]?.id, a.id, "telegram", first[0]?.firingId, "chat-alice", "fired 1", 510],
      [
        second?.outbox[0]?.id,
        a.id,
        "telegram",
        second?.firingId,
        "chat-alice",
        "fired 2",
        AT_1402_IST + 10,
      ],
    ]);
    expect(first[0]?.outbox.map((o) => o.channel)).toEqual(["telegram"]);
  });

  it("writes one History row per firing, with a webhook row carrying its firing id", async () => {
    const { store, sql } = current();
    const alice = await watchedUser(store, "alice");
    await sql(
      `INSERT INTO user_webhooks (user_id, url, secret, updated_at) VALUES (${alice.id}, 'https://hook.example/a', 's', 1)`,
    );
    const both = await created(
      store.alerts.create(alice.id, { ...settings, webhookNotify: true, metric: "zscore" }, 1),
    );
    const hookOnly = await created(
      store.alerts.create(
        alice.id,
        { ...settings, telegramNotify: false, webhookNotify: true, maxNotifications: 1 },
        1,
      ),
    );
    const results = await store.alerts.recordFirings([
      firing(both.id, AT_1402_IST, { metric: "zscore", value: 2.05, threshold: 2 }),
      firing(hookOnly.id, AT_1402_IST),
    ]);
    expect(results.map((r) => r?.outbox.map((o) => o.channel))).toEqual([
      ["telegram", "webhook"],
      ["webhook"],
    ]);
    expect(results[1]?.alert).toMatchObject({
      enabled: false,
      disabledReason: "Webhook limit 1 of 1 reached at 14:02 IST",
    });
    const [bothFiring, hookFiring] = results.map((r) => r?.firingId as number);
    expect(bothFiring).toBeLessThan(hookFiring as number);
    const outbox = await store.outbox.list();
    expect(outbox.map((m) => [m.channel, m.firingId, m.chatId, m.text])).toEqual([
      ["telegram", bothFiring, "chat-alice", "fired 1"],
      ["webhook", bothFiring, "", JSON.stringify({ firingId: bothFiring, count: 1 })],
      ["webhook", hookFiring, "", JSON.stringify({ firingId: hookFiring, count: 1 })],
    ]);
    expect(outbox.map((m) => m.id)).toEqual(results.flatMap((r) => r?.outbox.map((o) => o.id)));
    // One limit for both channels: the second firing, to both, is the second of 2.
    const [last] = await store.alerts.recordFirings([
      firing(both.id, AT_1402_IST + 1, { metric: "zscore", value: 1.9, direction: "below" }),
    ]);
    expect(last?.outbox.map((o) => o.channel)).toEqual(["telegram", "webhook"]);
    expect(last?.alert).toMatchObject({
      serverFiringCount: 2,
      enabled: false,
      disabledReason: "Telegram + Webhook limit 2 of 2 reached at 14:02 IST",
    });
  });

  it("the same alert fired twice in one batch counts twice and stops at its limit", async () => {
    const { store } = current();
    const alice = await watchedUser(store, "alice");
    const a = await created(store.alerts.create(alice.id, settings, 1));
    const text = (alert: Alert) => `${alert.serverFiringCount}/${alert.enabled}`;
    const results = await store.alerts.recordFirings([
      firing(a.id, 10, { text }),
      firing(a.id, 20, { text, direction: "below" }),
      firing(a.id, 30, { text }),
    ]);
    expect(results.map((r) => r && [r.alert.serverFiringCount, r.alert.enabled])).toEqual([
      [1, true],
      [2, false],
      undefined,
    ]);
    expect((await store.outbox.list()).map((m) => m.text)).toEqual(["1/true", "2/false"]);
    expect(await store.alerts.find(alice.id, a.id)).toMatchObject({
      serverFiringCount: 2,
      enabled: false,
      lastTelegramTriggered: 20,
      lastFiredSide: "below",
      updatedAt: 30,
    });
  });

  it("rolls back every firing of the quote when one fails", async () => {
    const { store } = current();
    const alice = await watchedUser(store, "alice");
    const a = await created(store.alerts.create(alice.id, settings, 1));
    const b = await created(store.alerts.create(alice.id, settings, 1));
    await expect(
      store.alerts.recordFirings([
        firing(a.id, 1, { text: () => "ok" }),
        firing(b.id, 1, {
          text: () => {
            throw new Error("message could not be built");
          },
        }),
      ]),
    ).rejects.toThrow("message could not be built");
    expect((await store.alerts.find(alice.id, a.id))?.serverFiringCount).toBe(0);
    expect(await store.outbox.list()).toEqual([]);
    expect((await store.alerts.recordFirings([firing(a.id, 2)]))[0]?.firingId).toBeGreaterThan(0);
  });

  it("records held crossings as History rows without counting or queueing anything", async () => {
    const { store, sql } = current();
    const alice = await watchedUser(store, "alice");
    const a = await created(store.alerts.create(alice.id, settings, 1));
    const held = {
      alertId: a.id,
      symbol: "GOLD_SPREAD",
      metric: "spread" as const,
      value: 1251,
      threshold: 1250.5,
      direction: "above" as const,
      note: "Held: CME GC quote stale (14 s old)",
      at: 700,
      now: 710,
    };
    expect(await store.alerts.recordHeld([held, { ...held, alertId: 999 }])).toBe(1);
    expect(await store.alerts.recordHeld([])).toBe(0);
    expect(await store.alerts.find(alice.id, a.id)).toMatchObject({
      serverFiringCount: 0,
      lastFiredSide: null,
      enabled: true,
    });
    expect(await store.outbox.list()).toEqual([]);
    await store.alerts.recordFirings([firing(a.id, 800)]);
    // Read back through SQL: the rows as stored, not as the History API pages them.
    const rows = await sql(
      "SELECT alert_id, symbol, metric, value, threshold, direction, state, source, note, fired_at FROM alert_firings ORDER BY id",
    );
    expect(
      rows.map((r) => [
        r.alert_id,
        r.symbol,
        r.metric,
        r.value,
        r.threshold,
        r.direction,
        r.state,
        r.source,
        r.note,
        Number(r.fired_at),
      ]),
    ).toEqual([
      [a.id, "GOLD_SPREAD", "spread", 1251, 1250.5, "above", "held", "server", held.note, 700],
      [a.id, "GOLD_SPREAD", "spread", 1251, 1250.5, "above", "fired", "server", null, 800],
    ]);
  });

  it("deleting a user removes their alerts, chat link and queued messages, not another's", async () => {
    const { store } = current();
    const alice = await watchedUser(store, "alice");
    const bob = await watchedUser(store, "bob");
    const mine = await created(store.alerts.create(alice.id, settings, 100));
    const theirs = await created(store.alerts.create(bob.id, settings, 100));
    await store.alerts.recordFirings([firing(mine.id, 500), firing(theirs.id, 500)]);
    expect(await store.users.delete(alice.id, 600)).toBe(true);
    expect(await store.alerts.listByUser(alice.id)).toEqual([]);
    expect(await store.telegramLinks.find(alice.id)).toBeUndefined();
    expect((await store.outbox.list()).map((m) => m.userId)).toEqual([bob.id]);
    expect(await store.alerts.listByUser(bob.id)).toHaveLength(1);
  });
});
