import { describe, expect, it } from "vitest";
import { STORE_KINDS, useStore } from "../testing/stores.ts";

describe.each(STORE_KINDS)("webhooks (%s)", (kind) => {
  const current = useStore(kind);

  it("saves a webhook, replaces it, deletes it, and goes with its user", async () => {
    const { store } = current();
    const alice = await store.users.create({ username: "alice", passwordHash: "h" });
    const bob = await store.users.create({ username: "bob", passwordHash: "h" });
    expect(await store.webhooks.get(alice.id)).toBeUndefined();
    const first = await store.webhooks.save(alice.id, "https://a.example/1", "s".repeat(16), 10);
    expect(first).toEqual({
      userId: alice.id,
      url: "https://a.example/1",
      secret: "s".repeat(16),
      updatedAt: 10,
    });
    await store.webhooks.save(alice.id, "https://a.example/2", "t".repeat(20), 20);
    expect(await store.webhooks.get(alice.id)).toEqual({
      userId: alice.id,
      url: "https://a.example/2",
      secret: "t".repeat(20),
      updatedAt: 20,
    });
    // One user's webhook is theirs alone.
    expect(await store.webhooks.get(bob.id)).toBeUndefined();
    expect(await store.webhooks.delete(bob.id)).toBe(false);
    expect(await store.webhooks.delete(alice.id)).toBe(true);
    expect(await store.webhooks.delete(alice.id)).toBe(false);
    expect(await store.webhooks.get(alice.id)).toBeUndefined();
    await store.webhooks.save(alice.id, "https://a.example/3", "u".repeat(16), 30);
    await store.users.delete(alice.id, 40);
    expect(await store.webhooks.get(alice.id)).toBeUndefined();
  });
});

describe.each(STORE_KINDS)("outbox channels (%s)", (kind) => {
  const current = useStore(kind);

  async function queueBoth() {
    const { store, queueOutbox } = current();
    const user = await store.users.create({ username: "alice", passwordHash: "h" });
    const row = { userId: user.id, createdAt: 0, nextAttemptAt: 0 };
    const telegram = await queueOutbox({ ...row, channel: "telegram", chatId: "1", text: "t" });
    const webhook = await queueOutbox({ ...row, channel: "webhook", chatId: "", text: "{}" });
    return { store, telegram, webhook };
  }

  it("each channel's sender claims only its own rows", async () => {
    const { store, telegram, webhook } = await queueBoth();
    const lease = { leaseMs: 30_000, limit: 10, now: 1_000 };
    const hooks = await store.outbox.claim({ instanceId: "a", channel: "webhook", ...lease });
    expect(hooks.map((m) => [m.id, m.channel])).toEqual([[webhook, "webhook"]]);
    const chats = await store.outbox.claim({ instanceId: "a", channel: "telegram", ...lease });
    expect(chats.map((m) => [m.id, m.channel])).toEqual([[telegram, "telegram"]]);
    expect(await store.outbox.claim({ instanceId: "b", ...lease })).toEqual([]);
  });

  it("a channel's release leaves another channel's claim of the same instance alone", async () => {
    const { store, telegram, webhook } = await queueBoth();
    const lease = { instanceId: "a", leaseMs: 30_000, limit: 10, now: 1_000 };
    await store.outbox.claim({ ...lease, channel: "telegram" });
    await store.outbox.claim({ ...lease, channel: "webhook" });
    expect(await store.outbox.release("a", "webhook")).toBe(1);
    // Telegram's sender still holds its row and can mark it.
    expect(await store.outbox.markSent(telegram, "a", 1_500)).toBe(true);
    const [again] = await store.outbox.claim({ ...lease, instanceId: "b" });
    expect(again?.id).toBe(webhook);
  });
});
