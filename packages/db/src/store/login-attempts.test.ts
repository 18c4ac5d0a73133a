import { describe, expect, it } from "vitest";
import { STORE_KINDS, useStore } from "../testing/stores.ts";

const limits = { perUserAddress: 3, perAddress: 5, windowMs: 60_000 };

describe.each(STORE_KINDS)("login attempts (%s)", (kind) => {
  const current = useStore(kind);

  it("refuses the (username, address) pair at its limit until the oldest ages out", async () => {
    const { store } = current();
    const attempt = (now: number) =>
      store.loginAttempts.begin({ usernameKey: "alice", address: "1.2.3.4", now }, limits);
    expect(await attempt(1_000)).toEqual({ allowed: true });
    expect(await attempt(2_000)).toEqual({ allowed: true });
    expect(await attempt(3_000)).toEqual({ allowed: true });
    expect(await attempt(4_000)).toEqual({
      allowed: false,
      scope: "user_address",
      retryAfterMs: 57_000,
    });
    expect(await attempt(61_000)).toEqual({ allowed: true });
    // Forgotten once out of the window: the table stays bounded.
    expect(await store.loginAttempts.count()).toBe(3);
  });

  it("limits an address across usernames, and a success clears only its pair", async () => {
    const { store } = current();
    const attempt = (usernameKey: string, now = 1_000) =>
      store.loginAttempts.begin({ usernameKey, address: "5.6.7.8", now }, limits);
    for (const name of ["a", "b", "c", "d"]) expect(await attempt(name)).toEqual({ allowed: true });
    await store.loginAttempts.begin({ usernameKey: "a", address: "other", now: 1_000 }, limits);
    expect(await store.loginAttempts.clear("a", "5.6.7.8")).toBe(1);
    expect(await attempt("e")).toEqual({ allowed: true });
    expect(await attempt("f")).toEqual({ allowed: true });
    expect(await attempt("g")).toMatchObject({ allowed: false, scope: "address" });
    expect(await store.loginAttempts.count()).toBe(6);
  });

  it("counts concurrent attempts before any password is checked: at most the limit get in", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    const verdicts = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? other : store).loginAttempts.begin(
          { usernameKey: "alice", address: "9.9.9.9", now: 1_000 },
          limits,
        ),
      ),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(3);
  });

  it("forgets attempts older than the window, so the table stays bounded", async () => {
    const { store } = current();
    for (let i = 0; i < 3; i++)
      await store.loginAttempts.begin(
        { usernameKey: `u${i}`, address: `10.0.1.${i}`, now: 0 },
        limits,
      );
    const late = { usernameKey: "late", address: "10.0.2.1", now: limits.windowMs };
    expect(await store.loginAttempts.begin(late, limits)).toEqual({ allowed: true });
    expect(await store.loginAttempts.count()).toBe(1);
  });
});
