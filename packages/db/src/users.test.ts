import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isUniqueViolation } from "./connection.ts";
import { createTestDatabase, type TestDatabase } from "./testing.ts";
import {
  countUsers,
  createUser,
  deleteUser,
  findUserById,
  findUserByUsername,
  listUsers,
  setPasswordHash,
  setUserPermission,
} from "./users.ts";

let t: TestDatabase;
beforeEach(() => {
  t = createTestDatabase();
});
afterEach(() => t.cleanup());

describe("users", () => {
  it("creates a user with defaults and reads it back by id and by name in any case", () => {
    const created = createUser(t.db, {
      username: "Alice",
      passwordHash: "salt:hash",
      createdAt: 42,
    });
    expect(created).toEqual({
      id: created.id,
      username: "Alice",
      passwordHash: "salt:hash",
      isAdmin: false,
      alertsEnabled: false,
      createdAt: 42,
    });
    expect(findUserById(t.db, created.id)).toEqual(created);
    expect(findUserByUsername(t.db, "alice")).toEqual(created);
    expect(findUserByUsername(t.db, "ALICE")).toEqual(created);
    expect(findUserByUsername(t.db, "bob")).toBeUndefined();
    expect(findUserById(t.db, created.id + 1)).toBeUndefined();
  });

  it("rejects a username that differs from a taken one only in case", () => {
    createUser(t.db, { username: "alice", passwordHash: "a:a" });
    const again = () => createUser(t.db, { username: "Alice", passwordHash: "b:b" });
    expect(again).toThrow(/UNIQUE constraint failed: users\.username_key/);
    try {
      again();
    } catch (error) {
      expect(isUniqueViolation(error)).toBe(true);
    }
    expect(countUsers(t.db)).toBe(1);
    expect(isUniqueViolation(new Error("other"))).toBe(false);
  });

  it("lists users in creation order without password hashes", () => {
    createUser(t.db, {
      username: "admin",
      passwordHash: "x:y",
      isAdmin: true,
      alertsEnabled: true,
    });
    createUser(t.db, { username: "trader", passwordHash: "x:z" });
    const list = listUsers(t.db);
    expect(list.map((u) => [u.username, u.isAdmin, u.alertsEnabled])).toEqual([
      ["admin", true, true],
      ["trader", false, false],
    ]);
    for (const user of list) expect(user).not.toHaveProperty("passwordHash");
  });

  it("sets permissions and password hashes, reporting unknown ids", () => {
    const { id } = createUser(t.db, { username: "trader", passwordHash: "old:old" });
    expect(setUserPermission(t.db, id, "alerts_enabled", true)).toBe(true);
    expect(findUserById(t.db, id)).toMatchObject({ alertsEnabled: true, isAdmin: false });
    expect(setUserPermission(t.db, id, "is_admin", true)).toBe(true);
    expect(setUserPermission(t.db, id, "alerts_enabled", false)).toBe(true);
    expect(findUserById(t.db, id)).toMatchObject({ alertsEnabled: false, isAdmin: true });
    expect(setPasswordHash(t.db, id, "new:new")).toBe(true);
    expect(findUserById(t.db, id)?.passwordHash).toBe("new:new");

    expect(setUserPermission(t.db, id + 1, "is_admin", true)).toBe(false);
    expect(setPasswordHash(t.db, id + 1, "x:x")).toBe(false);
  });

  it("deletes users and counts what is left", () => {
    const a = createUser(t.db, { username: "a", passwordHash: "x:x" });
    createUser(t.db, { username: "b", passwordHash: "x:x" });
    expect(countUsers(t.db)).toBe(2);
    expect(deleteUser(t.db, a.id)).toBe(true);
    expect(deleteUser(t.db, a.id)).toBe(false);
    expect(countUsers(t.db)).toBe(1);
    expect(findUserByUsername(t.db, "a")).toBeUndefined();
  });
});
