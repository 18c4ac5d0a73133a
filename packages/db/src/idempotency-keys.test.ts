import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAlert, listUserAlerts } from "./alerts.ts";
import { countIdempotencyKeys, runOnce } from "./idempotency-keys.ts";
import { createTestDatabase, type TestDatabase } from "./testing.ts";
import { createUser } from "./users.ts";

let t: TestDatabase;
let alice: number;
let bob: number;
beforeEach(() => {
  t = createTestDatabase();
  alice = createUser(t.db, { username: "alice", passwordHash: "a:a" }).id;
  bob = createUser(t.db, { username: "bob", passwordHash: "b:b" }).id;
});
afterEach(() => t.cleanup());

const DAY = 24 * 60 * 60_000;
const settings = {
  commodityType: "GC_BUY",
  threshold: 100,
  soundId: "beep",
  enabled: true,
  telegramNotify: false,
  maxNotifications: 1,
};
const claim = (userId: number, key: string, fingerprint: string, now: number) => ({
  userId,
  key,
  fingerprint,
  now,
  ttlMs: DAY,
});
const createFor = (userId: number) => () => ({ id: createAlert(t.db, userId, settings, 1).id });

describe("idempotency keys", () => {
  it("creates once and replays the stored answer for the same key and request", () => {
    const first = runOnce(t.db, claim(alice, "k1", "f", 0), createFor(alice));
    expect(first.kind).toBe("created");
    const again = runOnce(t.db, claim(alice, "k1", "f", DAY - 1), createFor(alice));
    expect(again).toEqual({
      kind: "replayed",
      response: first.kind === "created" && first.response,
    });
    expect(listUserAlerts(t.db, alice)).toHaveLength(1);
  });

  it("refuses the same key with another request, and keeps users' keys apart", () => {
    runOnce(t.db, claim(alice, "k1", "f", 0), createFor(alice));
    expect(runOnce(t.db, claim(alice, "k1", "other", 1), createFor(alice))).toEqual({
      kind: "mismatch",
    });
    expect(runOnce(t.db, claim(bob, "k1", "other", 1), createFor(bob)).kind).toBe("created");
    expect(listUserAlerts(t.db, alice)).toHaveLength(1);
    expect(listUserAlerts(t.db, bob)).toHaveLength(1);
  });

  it("stores nothing when the create fails, so the key can be used again", () => {
    const failing = () => {
      createAlert(t.db, alice, settings, 1);
      throw new Error("limit reached");
    };
    expect(() => runOnce(t.db, claim(alice, "k1", "f", 0), failing)).toThrow("limit reached");
    expect(listUserAlerts(t.db, alice)).toHaveLength(0);
    expect(countIdempotencyKeys(t.db)).toBe(0);
    expect(runOnce(t.db, claim(alice, "k1", "f", 1), createFor(alice)).kind).toBe("created");
  });

  it("forgets keys after the TTL: the key creates afresh and old rows are pruned", () => {
    runOnce(t.db, claim(alice, "k1", "f", 0), createFor(alice));
    runOnce(t.db, claim(bob, "k2", "f", 0), createFor(bob));
    expect(runOnce(t.db, claim(alice, "k1", "f", DAY), createFor(alice)).kind).toBe("created");
    expect(countIdempotencyKeys(t.db)).toBe(1);
    expect(listUserAlerts(t.db, alice)).toHaveLength(2);
  });
});
