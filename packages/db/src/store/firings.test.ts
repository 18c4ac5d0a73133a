import { describe, expect, it } from "vitest";
import { STORE_KINDS, type StoreUnderTest, useStore } from "../testing/stores.ts";
import type { Store } from "./store.ts";
import type { AlertSettings } from "./types.ts";

const settings: AlertSettings = {
  commodityType: "GC_BUY",
  threshold: 100,
  soundId: "beep",
  enabled: true,
  telegramNotify: true,
  maxNotifications: 3,
};

interface ServerFiring {
  userId: number;
  alertId: number;
  firedAt: number;
  value?: number;
  state?: "fired" | "held";
  note?: string | null;
  metric?: string;
}

/** A server firing row, as the engine's recordFirings/recordHeld write it. */
async function insertFiring(h: StoreUnderTest, f: ServerFiring): Promise<number> {
  const [row] = await h.sql(
    `INSERT INTO alert_firings (user_id, alert_id, symbol, metric, value, threshold, direction,
       state, source, note, fired_at, created_at)
     VALUES ($1, $2, 'GC_BUY', $3, $4, 100, 'above', $5, 'server', $6, $7, $7) RETURNING id`,
    [
      f.userId,
      f.alertId,
      f.metric ?? "spread",
      f.value ?? 101.5,
      f.state ?? "fired",
      f.note ?? null,
      f.firedAt,
    ],
  );
  return Number(row?.id);
}

interface OutboxRow {
  userId: number;
  alertId: number;
  firingId: number;
  channel: "telegram" | "webhook";
  attempts: number;
  sentAt?: number | null;
  failedAt?: number | null;
}

async function insertOutbox(h: StoreUnderTest, o: OutboxRow): Promise<void> {
  await h.sql(
    `INSERT INTO outbox (user_id, alert_id, channel, firing_id, chat_id, text,
       created_at, attempts, next_attempt_at, sent_at, failed_at)
     VALUES ($1, $2, $3, $4, '', 'x', 1, $5, 1, $6, $7) RETURNING id`,
    [o.userId, o.alertId, o.channel, o.firingId, o.attempts, o.sentAt ?? null, o.failedAt ?? null],
  );
}

async function userWithAlert(store: Store, username: string) {
  const user = await store.users.create({ username, passwordHash: "h", alertsEnabled: true });
  const alert = await store.alerts.create(user.id, settings, 1);
  if (!alert) throw new Error("alert not created");
  return { user, alert };
}

describe.each(STORE_KINDS)("firings (%s)", (kind) => {
  const current = useStore(kind);

  it("lists the user's own entries newest first, with channels from the outbox rows", async () => {
    const h = current();
    const { user, alert } = await userWithAlert(h.store, "alice");
    const other = await userWithAlert(h.store, "bob");
    const older = await insertFiring(h, { userId: user.id, alertId: alert.id, firedAt: 1000 });
    const newer = await insertFiring(h, {
      userId: user.id,
      alertId: alert.id,
      firedAt: 2000,
      value: -3.25,
      metric: "zscore",
    });
    const held = await insertFiring(h, {
      userId: user.id,
      alertId: alert.id,
      firedAt: 1500,
      state: "held",
      note: "MCX leg stale",
    });
    await insertFiring(h, { userId: other.user.id, alertId: other.alert.id, firedAt: 3000 });
    const base = { userId: user.id, alertId: alert.id };
    await insertOutbox(h, {
      ...base,
      firingId: older,
      channel: "telegram",
      attempts: 2,
      sentAt: 5,
    });
    await insertOutbox(h, {
      ...base,
      firingId: older,
      channel: "webhook",
      attempts: 4,
      failedAt: 9,
    });
    await insertOutbox(h, { ...base, firingId: newer, channel: "webhook", attempts: 1 });

    const entries = await h.store.firings.list(user.id, { limit: 50 });
    expect(entries.map((e) => e.id)).toEqual([newer, held, older]);
    expect(entries[0]).toEqual({
      id: newer,
      alertId: alert.id,
      symbol: "GC_BUY",
      metric: "zscore",
      value: -3.25,
      threshold: 100,
      direction: "above",
      firedAt: 2000,
      state: "fired",
      source: "server",
      note: null,
      channels: [{ channel: "webhook", state: "pending", attempts: 1 }],
    });
    expect(entries[1]).toMatchObject({ state: "held", note: "MCX leg stale", channels: [] });
    expect(entries[2]?.channels).toEqual([
      { channel: "telegram", state: "sent", attempts: 3 },
      { channel: "webhook", state: "failed", attempts: 5 },
    ]);
    expect(await h.store.firings.list(other.user.id, { limit: 50 })).toHaveLength(1);
  });

  it("pages with limit and an exclusive firedAt cursor; ties keep id order", async () => {
    const h = current();
    const { user, alert } = await userWithAlert(h.store, "alice");
    const ids: number[] = [];
    for (const firedAt of [100, 200, 300, 300, 400])
      ids.push(await insertFiring(h, { userId: user.id, alertId: alert.id, firedAt }));
    const first = await h.store.firings.list(user.id, { limit: 2 });
    expect(first.map((e) => e.id)).toEqual([ids[4], ids[3]]);
    const second = await h.store.firings.list(user.id, { limit: 2, before: 300 });
    expect(second.map((e) => e.firedAt)).toEqual([200, 100]);
    expect(await h.store.firings.list(user.id, { limit: 2, before: 100 })).toEqual([]);
    // The rest of the 300 group after the first page's last entry (ids[3]): ids[2] alone.
    const rest = await h.store.firings.list(user.id, {
      limit: 10,
      sameTime: { firedAt: 300, belowId: ids[3] as number },
    });
    expect(rest.map((e) => e.id)).toEqual([ids[2]]);
  });

  it("keeps a deleted alert's history, with alertId null", async () => {
    const h = current();
    const { user, alert } = await userWithAlert(h.store, "alice");
    const id = await insertFiring(h, { userId: user.id, alertId: alert.id, firedAt: 10 });
    await insertOutbox(h, {
      userId: user.id,
      alertId: alert.id,
      firingId: id,
      channel: "telegram",
      attempts: 0,
      sentAt: 11,
    });
    expect(await h.store.alerts.delete(user.id, alert.id)).toBe(true);
    const [entry] = await h.store.firings.list(user.id, { limit: 10 });
    expect(entry).toMatchObject({
      id,
      alertId: null,
      channels: [{ channel: "telegram", state: "sent", attempts: 1 }],
    });
  });

  it("writes a browser firing row when the browser says what it fired on", async () => {
    const h = current();
    const { user, alert } = await userWithAlert(h.store, "alice");
    const counted = await h.store.alerts.recordBrowserTrigger(user.id, alert.id, 5000);
    expect(counted).toMatchObject({ notificationCount: 1, lastTriggered: 5000 });
    expect(await h.store.firings.list(user.id, { limit: 10 })).toEqual([]);
    const fired = await h.store.alerts.recordBrowserTrigger(user.id, alert.id, 6000, {
      value: 97.5,
      metric: "spread",
      direction: "below",
    });
    expect(fired).toMatchObject({ notificationCount: 2, lastTriggered: 6000 });
    expect(await h.store.firings.list(user.id, { limit: 10 })).toEqual([
      {
        id: expect.any(Number),
        alertId: alert.id,
        symbol: "GC_BUY",
        metric: "spread",
        value: 97.5,
        threshold: 100,
        direction: "below",
        firedAt: 6000,
        state: "fired",
        source: "browser",
        note: null,
        channels: [{ channel: "browser", state: "sent", attempts: 1 }],
      },
    ]);
    // Another user's alert: nothing counted, nothing written.
    const bob = await h.store.users.create({ username: "bob", passwordHash: "h" });
    expect(
      await h.store.alerts.recordBrowserTrigger(bob.id, alert.id, 7000, {
        value: 1,
        metric: "spread",
        direction: "above",
      }),
    ).toBeUndefined();
    expect(await h.store.firings.list(bob.id, { limit: 10 })).toEqual([]);
    expect(await h.store.firings.list(user.id, { limit: 10 })).toHaveLength(1);
  });

  it("re-enabling an alert clears why the server disabled it", async () => {
    const h = current();
    const { user, alert } = await userWithAlert(h.store, "alice");
    const reason = "Telegram limit 3 of 3 reached at 14:02 IST";
    await h.sql(
      "UPDATE alerts SET enabled = $1, disabled_reason = $2, server_firing_count = 3 WHERE id = $3",
      [kind === "sqlite" ? 0 : false, reason, alert.id],
    );
    expect(await h.store.alerts.find(user.id, alert.id)).toMatchObject({
      enabled: false,
      disabledReason: reason,
    });
    // An edit that does not re-enable keeps the reason.
    expect(await h.store.alerts.update(user.id, alert.id, { threshold: 90 }, 2)).toMatchObject({
      disabledReason: reason,
    });
    expect(await h.store.alerts.update(user.id, alert.id, { enabled: true }, 3)).toMatchObject({
      enabled: true,
      disabledReason: null,
      serverFiringCount: 0,
    });
  });

  it("records a position's crossing: a History row with no alert, outbox rows per usable channel", async () => {
    const h = current();
    const alice = await h.store.users.create({
      username: "alice",
      passwordHash: "h",
      alertsEnabled: true,
    });
    const bob = await h.store.users.create({ username: "bob", passwordHash: "h" });
    await h.store.telegramLinks.save(alice.id, "chat-alice", 1);
    await h.store.webhooks.save(alice.id, "https://example.test/hook", "s3cret", 1);
    // Bob has a chat but not the alerts permission: History only.
    await h.store.telegramLinks.save(bob.id, "chat-bob", 1);
    const crossing = {
      symbol: "GC_SELL",
      value: 12_400,
      threshold: 12_000,
      direction: "above" as const,
      state: "fired" as const,
      note: "BUY 2 × GC: net ₹12,400.00 reached target ₹12,000.00",
      at: 5_000,
      now: 6_000,
      text: "target reached",
      webhookBody: (firingId: number) => JSON.stringify({ firingId }),
    };
    const [mine, theirs, held, gone] = await h.store.firings.recordPositionCrossings([
      { ...crossing, userId: alice.id },
      { ...crossing, userId: bob.id },
      { ...crossing, userId: alice.id, state: "held", note: "Held: CME GC quote stale", at: 4_000 },
      { ...crossing, userId: 999_999 },
    ]);
    expect(mine?.outbox.map((o) => o.channel)).toEqual(["telegram", "webhook"]);
    expect(theirs?.outbox).toEqual([]);
    expect(held?.outbox).toEqual([]);
    expect(gone).toBeUndefined();
    const outbox = await h.store.outbox.list();
    expect(outbox.map((o) => [o.userId, o.alertId, o.channel, o.chatId, o.text])).toEqual([
      [alice.id, null, "telegram", "chat-alice", "target reached"],
      [alice.id, null, "webhook", "", JSON.stringify({ firingId: mine?.firingId })],
    ]);
    const history = await h.store.firings.list(alice.id, { limit: 10 });
    expect(history).toMatchObject([
      {
        id: mine?.firingId,
        alertId: null,
        symbol: "GC_SELL",
        metric: "net",
        value: 12_400,
        threshold: 12_000,
        direction: "above",
        state: "fired",
        source: "server",
        note: crossing.note,
        firedAt: 5_000,
        channels: [
          { channel: "telegram", state: "pending" },
          { channel: "webhook", state: "pending" },
        ],
      },
      { id: held?.firingId, state: "held", note: "Held: CME GC quote stale", channels: [] },
    ]);
    expect(await h.store.firings.list(bob.id, { limit: 10 })).toHaveLength(1);
  });
});
