import { describe, expect, it } from "vitest";
import { queueTelegramFirings as queue } from "../testing/outbox.ts";
import { STORE_KINDS, useStore } from "../testing/stores.ts";

describe.each(STORE_KINDS)("outbox (%s)", (kind) => {
  const current = useStore(kind);
  const lease = { leaseMs: 30_000, now: 1_000 };

  it("claims due rows oldest first, each once while its lease runs", async () => {
    const { store } = current();
    const ids = await queue(store, 3);
    const claimed = await store.outbox.claim({ instanceId: "a", limit: 2, ...lease });
    expect(claimed.map((m) => [m.id, m.claimedBy, m.claimedUntil])).toEqual([
      [ids[0], "a", 31_000],
      [ids[1], "a", 31_000],
    ]);
    const rest = await store.outbox.claim({ instanceId: "b", limit: 10, ...lease });
    expect(rest.map((m) => m.id)).toEqual([ids[2]]);
    expect(await store.outbox.claim({ instanceId: "b", limit: 10, ...lease })).toEqual([]);
  });

  it("never gives two claimers the same row", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    const ids = await queue(store, 40);
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 ? other : store).outbox.claim({ instanceId: `i${i}`, limit: 3, ...lease }),
      ),
    );
    const got = claims.flat().map((m) => m.id);
    expect(new Set(got).size).toBe(got.length);
    expect(got.length).toBe(24);
    expect(ids).toEqual(expect.arrayContaining(got));
  });

  it("gives a dead claimant's rows to another once the lease ran out", async () => {
    const { store } = current();
    const [id] = await queue(store, 1);
    await store.outbox.claim({ instanceId: "dead", limit: 1, ...lease });
    expect(
      await store.outbox.claim({ instanceId: "b", limit: 1, leaseMs: 30_000, now: 30_999 }),
    ).toEqual([]);
    const [taken] = await store.outbox.claim({
      instanceId: "b",
      limit: 1,
      leaseMs: 30_000,
      now: 31_000,
    });
    expect(taken?.id).toBe(id);
    // The dead one coming back cannot mark what is no longer its own.
    expect(await store.outbox.markSent(id as number, "dead", 31_500)).toBe(false);
    expect(await store.outbox.markSent(id as number, "b", 31_500)).toBe(true);
    const [row] = await store.outbox.list();
    expect(row).toMatchObject({ sentAt: 31_500, claimedBy: null, claimedUntil: null });
    expect(
      await store.outbox.claim({ instanceId: "c", limit: 1, leaseMs: 1, now: 99_999 }),
    ).toEqual([]);
  });

  it("renews only its own unsent rows' lease, which then outlives the first", async () => {
    const { store } = current();
    const [first, second] = await queue(store, 2);
    await store.outbox.claim({ instanceId: "a", limit: 2, ...lease });
    await store.outbox.markSent(first as number, "a", 2_000);
    // A stranger's renewal and the sent row change nothing; the one in flight is pushed on.
    expect(await store.outbox.renew([first as number, second as number], "b", 90_000)).toBe(0);
    expect(await store.outbox.renew([first as number, second as number], "a", 60_000)).toBe(1);
    expect(await store.outbox.renew([], "a", 60_000)).toBe(0);
    const rows = await store.outbox.list();
    expect(rows.map((m) => [m.id, m.claimedBy, m.claimedUntil])).toEqual([
      [first, null, null],
      [second, "a", 60_000],
    ]);
    // Past the first lease, before the renewed one: still nobody else's to take.
    expect(
      await store.outbox.claim({ instanceId: "b", limit: 1, leaseMs: 30_000, now: 45_000 }),
    ).toEqual([]);
    const [taken] = await store.outbox.claim({
      instanceId: "b",
      limit: 1,
      leaseMs: 30_000,
      now: 60_000,
    });
    expect(taken?.id).toBe(second);
  });

  it("gives a restarted claimant's rows back at once, attempts untouched", async () => {
    const { store } = current();
    const [id] = await queue(store, 2);
    await store.outbox.claim({ instanceId: "a", limit: 2, ...lease });
    await store.outbox.markSent(id as number, "a", 1_500);
    expect(await store.outbox.claim({ instanceId: "a", limit: 2, ...lease })).toEqual([]);
    expect(await store.outbox.release("b")).toBe(0);
    expect(await store.outbox.release("a")).toBe(1);
    const again = await store.outbox.claim({ instanceId: "a", limit: 2, ...lease });
    expect(again).toMatchObject([{ attempts: 0, sentAt: null }]);
    expect(again[0]?.id).not.toBe(id);
  });

  it("a retry counts the attempt, releases the row and waits for its time", async () => {
    const { store } = current();
    const [id] = (await queue(store, 1)) as [number];
    await store.outbox.claim({ instanceId: "a", limit: 1, ...lease });
    expect(await store.outbox.markRetry(id, "b", "not mine", 5_000)).toBe(false);
    expect(await store.outbox.markRetry(id, "a", "HTTP 502", 5_000)).toBe(true);
    expect(
      await store.outbox.claim({ instanceId: "b", limit: 1, leaseMs: 10, now: 4_999 }),
    ).toEqual([]);
    const [again] = await store.outbox.claim({
      instanceId: "b",
      limit: 1,
      leaseMs: 10,
      now: 5_000,
    });
    expect(again).toMatchObject({ id, attempts: 1, lastError: "HTTP 502", claimedBy: "b" });
  });

  it("a failed row is never claimed again", async () => {
    const { store } = current();
    const [id] = (await queue(store, 1)) as [number];
    await store.outbox.claim({ instanceId: "a", limit: 1, ...lease });
    expect(await store.outbox.markFailed(id, "b", "blocked", 2_000)).toBe(false);
    expect(await store.outbox.markFailed(id, "a", "bot blocked", 2_000)).toBe(true);
    expect(await store.outbox.claim({ instanceId: "a", limit: 1, leaseMs: 1, now: 1e12 })).toEqual(
      [],
    );
    expect((await store.outbox.list())[0]).toMatchObject({
      failedAt: 2_000,
      lastError: "bot blocked",
    });
  });

  it("reports each channel's undelivered rows and when the oldest was queued", async () => {
    const { store, queueOutbox } = current();
    expect(await store.outbox.backlog()).toEqual([]);
    const [sent, failed] = (await queue(store, 3, 7_000)) as [number, number, number];
    const user = await store.users.findByUsername("alice");
    const webhook = {
      userId: user?.id as number,
      channel: "webhook" as const,
      chatId: "",
      text: "{}",
    };
    await queueOutbox({ ...webhook, createdAt: 9_000, nextAttemptAt: 9_000 });
    await queueOutbox({ ...webhook, createdAt: 8_000, nextAttemptAt: 8_000 });
    await store.outbox.claim({
      instanceId: "a",
      limit: 2,
      channel: "telegram",
      leaseMs: 9,
      now: 7_000,
    });
    await store.outbox.markSent(sent, "a", 10_000);
    await store.outbox.markFailed(failed, "a", "bot blocked", 10_000);
    // Sent and given-up rows are history, not backlog: one Telegram row and both webhooks wait.
    const backlog = await store.outbox.backlog();
    expect(backlog.sort((a, b) => a.channel.localeCompare(b.channel))).toEqual([
      { channel: "telegram", pending: 1, oldestCreatedAt: 7_000 },
      { channel: "webhook", pending: 2, oldestCreatedAt: 8_000 },
    ]);
  });
});
