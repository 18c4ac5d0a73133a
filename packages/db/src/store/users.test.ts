import { describe, expect, it } from "vitest";
import { STORE_KINDS, useStore } from "../testing/stores.ts";
import { UsernameTakenError } from "./store.ts";

describe.each(STORE_KINDS)("users (%s)", (kind) => {
  const current = useStore(kind);
  const alice = { username: "Alice", passwordHash: "salt:hash", createdAt: 1_000 };

  it("creates a user and finds it by id and by username in any case", async () => {
    const { store } = current();
    const user = await store.users.create(alice);
    expect(user).toEqual({
      id: user.id,
      username: "Alice",
      passwordHash: "salt:hash",
      isAdmin: false,
      alertsEnabled: false,
      createdAt: 1_000,
    });
    expect(await store.users.findById(user.id)).toEqual(user);
    expect(await store.users.findByUsername("aLICE")).toEqual(user);
    expect(await store.users.findByUsername("bob")).toBeUndefined();
    expect(await store.users.count()).toBe(1);
    expect(await store.users.list()).toEqual([
      { id: user.id, username: "Alice", isAdmin: false, alertsEnabled: false, createdAt: 1_000 },
    ]);
  });

  it("refuses a username taken in another case, also when both are created at once", async () => {
    const { store, openAnother } = current();
    await store.users.create(alice);
    await expect(store.users.create({ ...alice, username: "ALICE" })).rejects.toBeInstanceOf(
      UsernameTakenError,
    );
    const other = await openAnother();
    const results = await Promise.allSettled([
      store.users.create({ ...alice, username: "Bob" }),
      other.users.create({ ...alice, username: "bOB" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const [refused] = results.filter((r) => r.status === "rejected");
    expect(refused?.reason).toBeInstanceOf(UsernameTakenError);
    expect(await store.users.count()).toBe(2);
  });

  it("sets permissions and password hashes, reporting unknown users", async () => {
    const { store } = current();
    const user = await store.users.create(alice);
    expect(await store.users.setPermission(user.id, "alerts_enabled", true)).toBe(true);
    expect(await store.users.setPermission(user.id, "is_admin", true)).toBe(true);
    expect(await store.users.setPasswordHash(user.id, "new:hash")).toBe(true);
    expect(await store.users.findById(user.id)).toMatchObject({
      isAdmin: true,
      alertsEnabled: true,
      passwordHash: "new:hash",
    });
    expect(await store.users.setPermission(999, "is_admin", true)).toBe(false);
    expect(await store.users.setPasswordHash(999, "x")).toBe(false);
  });

  it("changes a password and signs out every other session of the user", async () => {
    const { store } = current();
    const user = await store.users.create(alice);
    const bob = await store.users.create({ ...alice, username: "bob" });
    await store.sessions.create(user.id, "s1", 10);
    await store.sessions.create(bob.id, "b1", 10);
    // A second session of Alice's, inserted as another login would leave it after replacing s1.
    await store.sessions.create(user.id, "s2", 20);
    expect(await store.users.changePassword(user.id, "new:hash", 30, "s2")).toBe(true);
    expect(await store.sessions.find("s2")).toBeDefined();
    expect(await store.sessions.find("b1")).toBeDefined();
    await store.sessions.create(user.id, "s3", 40);
    expect(await store.users.changePassword(user.id, "newer:hash", 50)).toBe(true);
    expect(await store.sessions.find("s3")).toBeUndefined();
    expect(await store.sessions.findEnd("s3")).toMatchObject({ reason: "password_changed" });
    expect((await store.users.findById(user.id))?.passwordHash).toBe("newer:hash");
    expect(await store.users.changePassword(999, "x", 60)).toBe(false);
  });

  it("deletes a user, leaving tombstones for their sessions", async () => {
    const { store } = current();
    const user = await store.users.create(alice);
    await store.sessions.create(user.id, "s1", 10);
    expect(await store.users.delete(user.id, 20)).toBe(true);
    expect(await store.users.findById(user.id)).toBeUndefined();
    expect(await store.sessions.find("s1")).toBeUndefined();
    expect(await store.sessions.findEnd("s1")).toMatchObject({
      reason: "user_deleted",
      endedAt: 20,
    });
    expect(await store.users.delete(user.id, 30)).toBe(false);
  });
});
