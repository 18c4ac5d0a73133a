import { describe, expect, it } from "vitest";
import { STORE_KINDS, useStore } from "../testing/stores.ts";

describe.each(STORE_KINDS)("sessions (%s)", (kind) => {
  const current = useStore(kind);
  const newUser = (username: string) => ({ username, passwordHash: "h", createdAt: 1 });

  it("a login ends the user's other session and remembers why", async () => {
    const { store } = current();
    const user = await store.users.create(newUser("alice"));
    expect(await store.sessions.create(user.id, "first", 100)).toBe(0);
    expect(await store.sessions.create(user.id, "second", 200)).toBe(1);
    expect(await store.sessions.find("first")).toBeUndefined();
    expect(await store.sessions.findEnd("first")).toEqual({
      sessionId: "first",
      userId: user.id,
      reason: "replaced",
      endedAt: 200,
    });
    expect(await store.sessions.find("second")).toEqual({
      id: "second",
      userId: user.id,
      createdAt: 200,
      lastSeenAt: 200,
    });
  });

  it("of logins racing on two instances exactly one session survives", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    const user = await store.users.create(newUser("alice"));
    const ids = Array.from({ length: 8 }, (_, i) => `race-${i}`);
    await Promise.all(ids.map((id, i) => (i % 2 ? other : store).sessions.create(user.id, id, 10)));
    const alive = [];
    for (const id of ids) if (await store.sessions.find(id)) alive.push(id);
    expect(alive).toHaveLength(1);
  });

  it("touches, ends one, ends all of a user but one, and expires idle sessions", async () => {
    const { store } = current();
    const alice = await store.users.create(newUser("alice"));
    const bob = await store.users.create(newUser("bob"));
    const carol = await store.users.create(newUser("carol"));
    await store.sessions.create(alice.id, "a", 100);
    await store.sessions.create(bob.id, "b", 100);
    await store.sessions.create(carol.id, "c", 100);
    expect(await store.sessions.touch("a", 500)).toBe(true);
    expect(await store.sessions.touch("nope", 500)).toBe(false);
    expect((await store.sessions.find("a"))?.lastSeenAt).toBe(500);

    expect(await store.sessions.endIdleSince(300, 600)).toBe(2);
    expect(await store.sessions.findEnd("b")).toMatchObject({ reason: "expired", endedAt: 600 });
    expect(await store.sessions.find("a")).toBeDefined();

    expect(await store.sessions.endAllOfUser(alice.id, "password_changed", 700, "a")).toBe(0);
    expect(await store.sessions.endAllOfUser(alice.id, "password_changed", 700)).toBe(1);
    expect(await store.sessions.findEnd("a")).toMatchObject({ reason: "password_changed" });

    await store.sessions.create(bob.id, "b2", 800);
    expect(await store.sessions.end("b2", "logged_out", 900)).toBe(true);
    expect(await store.sessions.end("b2", "logged_out", 900)).toBe(false);
    expect(await store.sessions.findEnd("b2")).toMatchObject({ reason: "logged_out" });
  });

  it("forgets tombstones older than the cutoff", async () => {
    const { store } = current();
    const user = await store.users.create(newUser("alice"));
    await store.sessions.create(user.id, "old", 100);
    await store.sessions.end("old", "logged_out", 100);
    await store.sessions.create(user.id, "new", 200);
    await store.sessions.end("new", "logged_out", 300);
    expect(await store.sessions.pruneEnds(200)).toBe(1);
    expect(await store.sessions.findEnd("old")).toBeUndefined();
    expect(await store.sessions.findEnd("new")).toBeDefined();
  });

  it("rolls a login back whole when its session cannot be stored, and refuses unknown users", async () => {
    const { store } = current();
    const alice = await store.users.create(newUser("alice"));
    const bob = await store.users.create(newUser("bob"));
    await store.sessions.create(alice.id, "a1", 1);
    await store.sessions.create(bob.id, "b1", 2);
    // "b1" is taken: the insert fails, so alice's old session must survive.
    await expect(store.sessions.create(alice.id, "b1", 3)).rejects.toThrow();
    expect(await store.sessions.find("a1")).toMatchObject({ userId: alice.id });
    expect(await store.sessions.findEnd("a1")).toBeUndefined();
    await expect(store.sessions.create(9999, "ghost", 4)).rejects.toThrow();
    expect(await store.sessions.find("ghost")).toBeUndefined();
  });
});
