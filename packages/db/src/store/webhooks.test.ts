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

describe.each(STORE_KINDS)("outbox oldest row per user (%s)", (kind) => {
  const current = useStore(kind);
  const lease = { channel: "webhook", oldestPerUser: true, leaseMs: 30_000, limit: 10 } as const;

  async function queueHooks(...users: string[]) {
    const { store, queueOutbox } = current();
    const ids = new Map<string, number>();
    const queued: number[] = [];
    for (const name of users) {
      const user =
        ids.get(name) ?? (await store.users.create({ username: name, passwordHash: "h" })).id;
      ids.set(name, user);
      const row = { userId: user, createdAt: 0, nextAttemptAt: 0 };
      queued.push(await queueOutbox({ ...row, channel: "webhook", chatId: "", text: "{}" }));
    }
    return queued;
  }

  it("claims each user's oldest row only: later rows wait behind it in flight and in backoff", async () => {
    const { store, queueOutbox } = current();
    const [a1, b1, a2, b2] = (await queueHooks("alice", "bob", "alice", "bob")) as number[];
    // Another channel's row of alice's does not hold her webhooks.
    const alice = (await store.users.findByUsername("alice"))?.id as number;
    const row = { userId: alice, createdAt: 0, nextAttemptAt: 0 };
    await queueOutbox({ ...row, channel: "telegram", chatId: "1", text: "t" });

    const first = await store.outbox.claim({ instanceId: "a", now: 1_000, ...lease });
    expect(first.map((m) => m.id)).toEqual([a1, b1]);
    // Both are in flight: neither user's next row may go yet, whoever claims.
    expect(await store.outbox.claim({ instanceId: "b", now: 1_000, ...lease })).toEqual([]);

    await store.outbox.markRetry(a1 as number, "a", "HTTP 500", 20_000);
    await store.outbox.markSent(b1 as number, "a", 2_000);
    // Alice's failed row serves its backoff and her later row waits behind it; bob goes on.
    const next = await store.outbox.claim({ instanceId: "a", now: 3_000, ...lease });
    expect(next.map((m) => m.id)).toEqual([b2]);

    const retried = await store.outbox.claim({ instanceId: "a", now: 20_000, ...lease });
    expect(retried.map((m) => m.id)).toEqual([a1]);
    await store.outbox.markFailed(a1 as number, "a", "refused", 20_500);
    const after = await store.outbox.claim({ instanceId: "a", now: 21_000, ...lease });
    expect(after.map((m) => m.id)).toEqual([a2]);
  });

  it("two claimers at once never hold two rows of one user", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    const users = ["u0", "u1", "u2", "u3", "u4"];
    await queueHooks(...users, ...users, ...users);
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? other : store).outbox.claim({ instanceId: `i${i}`, now: 1_000, ...lease }),
      ),
    );
    const got = claims.flat();
    expect(got.map((m) => m.userId).sort()).toEqual([...new Set(got.map((m) => m.userId))].sort());
    expect(got).toHaveLength(5);
  });
});
