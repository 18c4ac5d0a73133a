import { describe, expect, it } from "vitest";
import { STORE_KINDS, useStore } from "../testing/stores.ts";
import type { Store } from "./store.ts";

const settings = {
  commodityType: "GOLD_SPREAD",
  threshold: 1,
  soundId: "beep",
  enabled: true,
  telegramNotify: false,
  maxNotifications: 1,
};

describe.each(STORE_KINDS)("idempotency keys (%s)", (kind) => {
  const current = useStore(kind);
  const claim = (userId: number, key: string, fingerprint = "alerts.create:x", now = 1_000) => ({
    userId,
    key,
    fingerprint,
    now,
    ttlMs: 60_000,
  });
  const createAlert = (userId: number) => async (tx: Store) => {
    const alert = await tx.alerts.create(userId, settings, 1);
    return { id: alert?.id };
  };

  it("creates once, replays the stored answer, refuses the key for another request", async () => {
    const { store } = current();
    const user = await store.users.create({ username: "alice", passwordHash: "h" });
    const first = await store.idempotency.runOnce(claim(user.id, "k"), createAlert(user.id));
    expect(first.kind).toBe("created");
    const again = await store.idempotency.runOnce(claim(user.id, "k"), createAlert(user.id));
    expect(again).toEqual({
      kind: "replayed",
      response: (first as { response: unknown }).response,
    });
    expect(
      await store.idempotency.runOnce(claim(user.id, "k", "other"), createAlert(user.id)),
    ).toEqual({
      kind: "mismatch",
    });
    expect(await store.alerts.countByUser(user.id)).toBe(1);
    expect(await store.idempotency.count()).toBe(1);
  });

  it("peeks without writing: free, the stored answer, another request's key, forgotten after the TTL", async () => {
    const { store } = current();
    const user = await store.users.create({ username: "alice", passwordHash: "h" });
    expect(await store.idempotency.peek(claim(user.id, "k"))).toBeUndefined();
    expect(await store.idempotency.count()).toBe(0);
    const first = await store.idempotency.runOnce(claim(user.id, "k"), createAlert(user.id));
    expect(await store.idempotency.peek(claim(user.id, "k"))).toEqual({
      kind: "replayed",
      response: (first as { response: unknown }).response,
    });
    expect(await store.idempotency.peek(claim(user.id, "k", "other"))).toEqual({
      kind: "mismatch",
    });
    expect(await store.idempotency.peek(claim(user.id, "k", "other", 61_000))).toBeUndefined();
    expect(await store.idempotency.peek(claim(user.id + 1, "k", "other"))).toBeUndefined();
    expect(await store.alerts.countByUser(user.id)).toBe(1);
  });

  it("of parallel requests with one key (on two instances) exactly one creates", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    const user = await store.users.create({ username: "alice", passwordHash: "h" });
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? other : store).idempotency.runOnce(claim(user.id, "k"), createAlert(user.id)),
      ),
    );
    expect(outcomes.filter((o) => o.kind === "created")).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === "replayed")).toHaveLength(5);
    expect(await store.alerts.countByUser(user.id)).toBe(1);
  });

  it("a create that throws stores nothing, undoes its writes and leaves the key free", async () => {
    const { store } = current();
    const user = await store.users.create({ username: "alice", passwordHash: "h" });
    await expect(
      store.idempotency.runOnce(claim(user.id, "k"), async (tx) => {
        await tx.alerts.create(user.id, settings, 1);
        throw new Error("limit reached");
      }),
    ).rejects.toThrow("limit reached");
    expect(await store.alerts.countByUser(user.id)).toBe(0);
    const retried = await store.idempotency.runOnce(claim(user.id, "k"), createAlert(user.id));
    expect(retried.kind).toBe("created");
  });

  it("a taken username inside the create leaves nothing behind", async () => {
    const { store } = current();
    const admin = await store.users.create({ username: "admin", passwordHash: "h" });
    await expect(
      store.idempotency.runOnce(claim(admin.id, "k"), (tx) =>
        tx.users.create({ username: "ADMIN", passwordHash: "h" }),
      ),
    ).rejects.toThrow(/already exists/);
    expect(await store.idempotency.count()).toBe(0);
    expect(await store.users.count()).toBe(1);
  });

  it("forgets keys after the TTL, and keys are per user", async () => {
    const { store } = current();
    const alice = await store.users.create({ username: "alice", passwordHash: "h" });
    const bob = await store.users.create({ username: "bob", passwordHash: "h" });
    await store.idempotency.runOnce(claim(alice.id, "k"), createAlert(alice.id));
    const bobs = await store.idempotency.runOnce(claim(bob.id, "k"), createAlert(bob.id));
    expect(bobs.kind).toBe("created");
    const later = await store.idempotency.runOnce(
      claim(alice.id, "k", "alerts.create:x", 61_000),
      createAlert(alice.id),
    );
    expect(later.kind).toBe("created");
    expect(await store.alerts.countByUser(alice.id)).toBe(2);
  });

  it("other calls wait while an idempotent create is open, and are not rolled back with it", async () => {
    const { store } = current();
    const user = await store.users.create({ username: "alice", passwordHash: "h" });
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const failing = store.idempotency.runOnce(claim(user.id, "k"), async (tx) => {
      await tx.alerts.create(user.id, settings, 1);
      await gate;
      throw new Error("create failed");
    });
    const outside = store.keyValues.set("kite.session", { token: "t" }, 1);
    release();
    await expect(failing).rejects.toThrow("create failed");
    await outside;
    expect(await store.keyValues.get("kite.session")).toEqual({ token: "t" });
    expect(await store.alerts.countByUser(user.id)).toBe(0);
  });
});
