import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createSession,
  deleteSession,
  deleteSessionsIdleSince,
  deleteUserSessions,
  findSession,
  findSessionEnd,
  pruneSessionEnds,
  touchSession,
} from "./sessions.ts";
import { createTestDatabase, type TestDatabase } from "./testing.ts";
import { createUser, deleteUser } from "./users.ts";

let t: TestDatabase;
let alice: number;
let bob: number;
beforeEach(() => {
  t = createTestDatabase();
  alice = createUser(t.db, { username: "alice", passwordHash: "x:x" }).id;
  bob = createUser(t.db, { username: "bob", passwordHash: "x:x" }).id;
});
afterEach(() => t.cleanup());

function insertDirectly(id: string, userId: number, at: number) {
  // Bypasses createSession to set up a user with several rows, which createSession never leaves.
  t.sqlite
    .prepare("INSERT INTO sessions (id, user_id, created_at, last_seen_at) VALUES (?, ?, ?, ?)")
    .run(id, userId, at, at);
}

describe("sessions", () => {
  it("creates a session that can be found", () => {
    expect(createSession(t.db, alice, "s1", 1000)).toBe(0);
    expect(findSession(t.db, "s1")).toEqual({
      id: "s1",
      userId: alice,
      createdAt: 1000,
      lastSeenAt: 1000,
    });
    expect(findSession(t.db, "nope")).toBeUndefined();
  });

  it("a login ends that user's other sessions only, and says how many", () => {
    insertDirectly("a1", alice, 1);
    insertDirectly("a2", alice, 2);
    createSession(t.db, bob, "b1", 3);

    expect(createSession(t.db, alice, "a3", 4)).toBe(2);
    expect(findSession(t.db, "a1")).toBeUndefined();
    expect(findSession(t.db, "a2")).toBeUndefined();
    expect(findSession(t.db, "a3")?.userId).toBe(alice);
    expect(findSession(t.db, "b1")?.userId).toBe(bob);

    expect(createSession(t.db, alice, "a4", 5)).toBe(1);
  });

  it("rolls the whole login back when the new session cannot be stored", () => {
    createSession(t.db, alice, "a1", 1);
    createSession(t.db, bob, "b1", 2);
    // "b1" is taken: the insert fails, so alice's old session must survive.
    expect(() => createSession(t.db, alice, "b1", 3)).toThrow();
    expect(findSession(t.db, "a1")?.userId).toBe(alice);
  });

  it("rejects a session for a user that does not exist", () => {
    expect(() => createSession(t.db, 9999, "ghost", 1)).toThrow();
  });

  it("touches, deletes one, deletes a user's, and reports missing ids", () => {
    createSession(t.db, alice, "a1", 1000);
    expect(touchSession(t.db, "a1", 2000)).toBe(true);
    expect(findSession(t.db, "a1")).toMatchObject({ createdAt: 1000, lastSeenAt: 2000 });
    expect(touchSession(t.db, "missing", 2000)).toBe(false);

    expect(deleteSession(t.db, "a1")).toBe(true);
    expect(deleteSession(t.db, "a1")).toBe(false);

    insertDirectly("a2", alice, 1);
    insertDirectly("a3", alice, 1);
    createSession(t.db, bob, "b1", 1);
    expect(deleteUserSessions(t.db, alice)).toBe(2);
    expect(findSession(t.db, "b1")).toBeDefined();
  });

  it("expires sessions idle since the cutoff, keeping those seen at or after it", () => {
    createSession(t.db, alice, "old", 100);
    createSession(t.db, bob, "edge", 200);
    expect(deleteSessionsIdleSince(t.db, 200)).toBe(1);
    expect(findSession(t.db, "old")).toBeUndefined();
    expect(findSession(t.db, "edge")).toBeDefined();
  });

  it("deleting a user deletes their sessions", () => {
    createSession(t.db, alice, "a1", 1);
    createSession(t.db, bob, "b1", 1);
    deleteUser(t.db, alice);
    expect(findSession(t.db, "a1")).toBeUndefined();
    expect(findSession(t.db, "b1")).toBeDefined();
  });
});

describe("session ends", () => {
  it("remembers that a login replaced the user's other session", () => {
    createSession(t.db, alice, "old", 1000);
    createSession(t.db, alice, "new", 2000);
    expect(findSession(t.db, "old")).toBeUndefined();
    expect(findSessionEnd(t.db, "old")).toEqual({
      sessionId: "old",
      userId: alice,
      reason: "replaced",
      endedAt: 2000,
    });
    expect(findSessionEnd(t.db, "new")).toBeUndefined();
  });

  it("records the reason given when sessions are ended, keeping the one asked to keep", () => {
    insertDirectly("a1", alice, 1000);
    insertDirectly("a2", alice, 1000);
    expect(deleteUserSessions(t.db, alice, "password_changed", 3000, "a2")).toBe(1);
    expect(findSessionEnd(t.db, "a1")?.reason).toBe("password_changed");
    expect(findSession(t.db, "a2")).toBeDefined();
    expect(deleteSession(t.db, "a2", "logged_out", 4000)).toBe(true);
    expect(findSessionEnd(t.db, "a2")?.reason).toBe("logged_out");
  });

  it("marks idle sessions expired and prunes old tombstones", () => {
    insertDirectly("idle", bob, 1000);
    expect(deleteSessionsIdleSince(t.db, 5000, 6000)).toBe(1);
    expect(findSessionEnd(t.db, "idle")?.reason).toBe("expired");
    expect(pruneSessionEnds(t.db, 7000)).toBe(1);
    expect(findSessionEnd(t.db, "idle")).toBeUndefined();
  });
});
