import { describe, expect, it } from "vitest";
import { STORE_KINDS, useStore } from "../testing/stores.ts";

describe.each(STORE_KINDS)("key values and spread marks (%s)", (kind) => {
  const current = useStore(kind);

  it("stores, replaces and deletes a JSON value, seen by another instance", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    expect(await store.keyValues.get("kite.session")).toBeUndefined();
    await store.keyValues.set("kite.session", { accessToken: "a", expiresAt: 10 }, 1);
    await store.keyValues.set("kite.session", { accessToken: "b", expiresAt: 20 }, 2);
    expect(await other.keyValues.get("kite.session")).toEqual({ accessToken: "b", expiresAt: 20 });
    expect(await store.keyValues.delete("kite.session")).toBe(true);
    expect(await store.keyValues.delete("kite.session")).toBe(false);
    expect(await other.keyValues.get("kite.session")).toBeUndefined();
  });

  it("deletes the keys under a prefix set before a time, and only those", async () => {
    const { store } = current();
    await store.keyValues.set("kite.login-state.old", { userId: 1 }, 100);
    await store.keyValues.set("kite.login-state.new", { userId: 1 }, 300);
    await store.keyValues.set("kite.session", { accessToken: "a" }, 100);
    // `_` and `%` are letters here, not LIKE's wildcards.
    await store.keyValues.set("kite_login-state.x", { userId: 2 }, 100);
    expect(await store.keyValues.deleteSetBefore("kite.login-state.", 300)).toBe(1);
    expect(await store.keyValues.deleteSetBefore("kite.login-state.", 300)).toBe(0);
    expect(await store.keyValues.deleteSetBefore("kite%", 1_000)).toBe(0);
    expect(await store.keyValues.get("kite.login-state.old")).toBeUndefined();
    expect(await store.keyValues.get("kite.login-state.new")).toEqual({ userId: 1 });
    expect(await store.keyValues.get("kite.session")).toEqual({ accessToken: "a" });
    expect(await store.keyValues.get("kite_login-state.x")).toEqual({ userId: 2 });
  });

  it("sets a key only when it is missing or was set before the given time", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    expect(await store.keyValues.setIfStale("kite.claim.a", { by: 1 }, 100, 41)).toBe(true);
    // Set at 100: fresh for a claim stale before 100, and for one stale before 41.
    expect(await other.keyValues.setIfStale("kite.claim.a", { by: 2 }, 140, 100)).toBe(false);
    expect(await other.keyValues.setIfStale("kite.claim.a", { by: 2 }, 160, 41)).toBe(false);
    expect(await store.keyValues.get("kite.claim.a")).toEqual({ by: 1 });
    expect(await other.keyValues.setIfStale("kite.claim.a", { by: 2 }, 161, 101)).toBe(true);
    expect(await store.keyValues.get("kite.claim.a")).toEqual({ by: 2 });
    // The time it was set is the claim's: it ages from there, and deleteSetBefore sees it.
    expect(await store.keyValues.setIfStale("kite.claim.a", { by: 3 }, 200, 161)).toBe(false);
    expect(await store.keyValues.deleteSetBefore("kite.claim.", 161)).toBe(0);
    expect(await store.keyValues.deleteSetBefore("kite.claim.", 162)).toBe(1);
  });

  it("lets exactly one of many instances racing for a key claim it, missing or stale", async () => {
    const { store, openAnother } = current();
    const instances = [store, ...(await Promise.all([1, 2, 3, 4].map(() => openAnother())))];
    const race = (at: number) =>
      Promise.all(
        instances.flatMap((s, i) =>
          [0, 1].map((j) => s.keyValues.setIfStale("kite.claim.race", { by: i * 2 + j }, at, at)),
        ),
      );
    for (const at of [1_000, 2_000, 3_000]) {
      const won = await race(at);
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await store.keyValues.get("kite.claim.race")).toEqual({ by: won.indexOf(true) });
    }
  });

  it("keeps the newest spread mark per symbol", async () => {
    const { store } = current();
    await store.spreadMarks.save([
      { symbol: "B", value: 1, at: 100 },
      { symbol: "A", value: 2, at: 100 },
    ]);
    await store.spreadMarks.save([
      { symbol: "B", value: 3, at: 200 },
      { symbol: "A", value: 9, at: 50 },
    ]);
    expect(await store.spreadMarks.list()).toEqual([
      { symbol: "A", value: 2, at: 100 },
      { symbol: "B", value: 3, at: 200 },
    ]);
  });
});
