import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "./connection.ts";
import { beginLoginAttempt, clearLoginAttempts, countLoginAttempts } from "./login-attempts.ts";
import { createTestDatabase, type TestDatabase } from "./testing.ts";

let t: TestDatabase;
beforeEach(() => {
  t = createTestDatabase();
});
afterEach(() => t.cleanup());

const WINDOW = 15 * 60_000;
const limits = { perUserAddress: 3, perAddress: 5, windowMs: WINDOW };
const attempt = (usernameKey: string, address: string, now: number) =>
  beginLoginAttempt(t.db, { usernameKey, address, now }, limits);

describe("login attempts", () => {
  it("lets the limit through per (username, address), then says when the oldest ages out", () => {
    for (let i = 0; i < 3; i++)
      expect(attempt("admin", "10.0.0.1", 1_000 + i)).toEqual({ allowed: true });
    expect(attempt("admin", "10.0.0.1", 5_000)).toEqual({
      allowed: false,
      scope: "user_address",
      retryAfterMs: 1_000 + WINDOW - 5_000,
    });
    // Refused attempts are not recorded, so they do not push the wait further out.
    expect(countLoginAttempts(t.db)).toBe(3);
    expect(attempt("admin", "10.0.0.2", 5_000)).toEqual({ allowed: true });
    expect(attempt("admin", "10.0.0.1", 1_000 + WINDOW)).toEqual({ allowed: true });
  });

  it("caps an address across usernames", () => {
    for (const name of ["a", "b", "c", "d", "e"])
      expect(attempt(name, "10.0.0.9", 100).allowed).toBe(true);
    expect(attempt("admin", "10.0.0.9", 200)).toEqual({
      allowed: false,
      scope: "address",
      retryAfterMs: 100 + WINDOW - 200,
    });
    expect(attempt("admin", "10.0.0.8", 200).allowed).toBe(true);
  });

  it("clears only the (username, address) pair that logged in", () => {
    for (let i = 0; i < 3; i++) attempt("admin", "10.0.0.1", i);
    attempt("bob", "10.0.0.1", 10);
    attempt("admin", "10.0.0.2", 10);
    expect(clearLoginAttempts(t.db, "admin", "10.0.0.1")).toBe(3);
    expect(countLoginAttempts(t.db)).toBe(2);
    expect(attempt("admin", "10.0.0.1", 20).allowed).toBe(true);
  });

  it("forgets attempts older than the window, so the table stays bounded", () => {
    for (let i = 0; i < 3; i++) attempt(`user${i}`, `10.0.1.${i}`, 0);
    attempt("late", "10.0.2.1", WINDOW);
    expect(countLoginAttempts(t.db)).toBe(1);
  });

  it("survives reopening the file", () => {
    for (let i = 0; i < 3; i++) attempt("admin", "10.0.0.1", i);
    t.close();
    const again = openDatabase(t.file);
    try {
      expect(
        beginLoginAttempt(again.db, { usernameKey: "admin", address: "10.0.0.1", now: 10 }, limits)
          .allowed,
      ).toBe(false);
    } finally {
      again.close();
    }
  });
});
