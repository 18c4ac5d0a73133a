import { describe, expect, it } from "vitest";
import { STORE_KINDS, useStore } from "../testing/stores.ts";

describe.each(STORE_KINDS)("execution campaigns (%s)", (kind) => {
  const current = useStore(kind);

  it("stores a campaign's document, replaces it whole and lists the open ones to any instance", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    const alice = await store.users.create({ username: "alice", passwordHash: "h" });
    const doc = { orders: [{ tag: "swabc0000w1", filled: 0 }], events: [] };
    await store.executions.create({
      id: "abc",
      ownerId: alice.id,
      spread: "SP1",
      status: "working",
      doc,
      createdAt: 10,
      updatedAt: 10,
    });
    await store.executions.create({
      id: "def",
      ownerId: alice.id,
      spread: "SP1",
      status: "working",
      doc: {},
      createdAt: 20,
      updatedAt: 20,
    });
    expect((await other.executions.get("abc"))?.doc).toEqual(doc);
    expect((await other.executions.listOpen()).map((e) => e.id)).toEqual(["abc", "def"]);
    const filled = { orders: [{ tag: "swabc0000w1", filled: 2 }], events: ["filled"] };
    expect(await store.executions.save("abc", "done", filled, 30)).toBe(true);
    expect(await store.executions.save("nope", "done", filled, 30)).toBe(false);
    expect(await other.executions.get("abc")).toMatchObject({
      status: "done",
      doc: filled,
      createdAt: 10,
      updatedAt: 30,
    });
    expect((await other.executions.listOpen()).map((e) => e.id)).toEqual(["def"]);
    expect((await other.executions.listOf(alice.id, 10)).map((e) => e.id)).toEqual(["def", "abc"]);
  });

  it("goes with its owner", async () => {
    const { store } = current();
    const bob = await store.users.create({ username: "bob", passwordHash: "h" });
    await store.executions.create({
      id: "x1",
      ownerId: bob.id,
      spread: "GC",
      status: "hedging",
      doc: {},
      createdAt: 1,
      updatedAt: 1,
    });
    await store.users.delete(bob.id, 2);
    expect(await store.executions.get("x1")).toBeUndefined();
  });
});
