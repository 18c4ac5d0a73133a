import { describe, expect, it } from "vitest";
import { STORE_KINDS, useStore } from "../testing/stores.ts";
import type { SpreadDefinitionFields } from "./types.ts";

const CALENDAR: SpreadDefinitionFields = {
  name: "Gold near/next",
  legs: [
    { name: "a", instrument: "GOLD", lots: 1 },
    { name: "b", instrument: "GOLD@next" },
  ],
  formula: "a - b",
  shared: false,
};

const LIMITS = { perOwner: 50, total: 1000 };

describe.each(STORE_KINDS)("spread definitions (%s)", (kind) => {
  const current = useStore(kind);

  it("creates, lists, finds, updates and deletes; another instance sees the same", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    const trader = await store.users.create({ username: "trader", passwordHash: "h" });
    const created = await store.spreads.create(trader.id, CALENDAR, 10, LIMITS);
    expect(created.kind).toBe("created");
    if (created.kind !== "created") return;
    const spread = created.spread;
    expect(spread).toEqual({
      ...CALENDAR,
      id: spread.id,
      ownerId: trader.id,
      createdAt: 10,
      updatedAt: 10,
    });
    expect(await other.spreads.list()).toEqual([spread]);
    expect(await other.spreads.find(spread.id)).toEqual(spread);
    const ratio = {
      name: "Gold/silver",
      legs: [
        { name: "g", instrument: "GOLD" },
        { name: "s", instrument: "SILVER" },
      ],
      formula: "g / s",
      shared: true,
    };
    const updated = await other.spreads.update(spread.id, ratio, 20);
    expect(updated).toEqual({
      ...ratio,
      id: spread.id,
      ownerId: trader.id,
      createdAt: 10,
      updatedAt: 20,
    });
    expect(await store.spreads.find(spread.id)).toEqual(updated);
    expect(await store.spreads.update(spread.id + 100, ratio, 30)).toBeUndefined();
    expect(await store.spreads.countByOwner(trader.id)).toBe(1);
    expect(await store.spreads.delete(spread.id, [])).toEqual({ deleted: true, alertOwners: [] });
    expect(await other.spreads.delete(spread.id, [])).toEqual({ deleted: false, alertOwners: [] });
    expect(await store.spreads.list()).toEqual([]);
  });

  it("stores only the legs' own fields, and never reuses an id", async () => {
    const { store } = current();
    const trader = await store.users.create({ username: "trader", passwordHash: "h" });
    const stray = {
      ...CALENDAR,
      legs: [
        { name: "a", instrument: "GOLD", extra: "x" } as never,
        { name: "b", instrument: "GOLD@next" },
      ],
    };
    const first = await store.spreads.create(trader.id, stray, 1, LIMITS);
    if (first.kind !== "created") throw new Error("not created");
    expect(first.spread.legs).toEqual([
      { name: "a", instrument: "GOLD" },
      { name: "b", instrument: "GOLD@next" },
    ]);
    await store.spreads.delete(first.spread.id, []);
    const second = await store.spreads.create(trader.id, CALENDAR, 2, LIMITS);
    if (second.kind !== "created") throw new Error("not created");
    // SP<id> names the alerts on it: a new definition must never inherit a deleted one's.
    expect(second.spread.id).toBeGreaterThan(first.spread.id);
  });

  it("deletes a definition with every alert on its symbols, anyone's, in one go", async () => {
    const { store } = current();
    const owner = await store.users.create({ username: "owner", passwordHash: "h" });
    const reader = await store.users.create({ username: "reader", passwordHash: "h" });
    const created = await store.spreads.create(owner.id, { ...CALENDAR, shared: true }, 1, LIMITS);
    if (created.kind !== "created") throw new Error("not created");
    const symbol = `SP${created.spread.id}`;
    const settings = {
      commodityType: `${symbol}_BUY`,
      threshold: 1,
      soundId: "beep",
      enabled: true,
      telegramNotify: false,
      maxNotifications: 1,
    };
    await store.alerts.create(owner.id, settings, 1);
    await store.alerts.create(reader.id, { ...settings, commodityType: `${symbol}_SELL` }, 1);
    await store.alerts.create(reader.id, { ...settings, commodityType: "GC_BUY" }, 1);
    expect(await store.alerts.countOnSymbols([`${symbol}_BUY`, `${symbol}_SELL`])).toBe(2);
    const result = await store.spreads.delete(created.spread.id, [
      `${symbol}_BUY`,
      `${symbol}_SELL`,
    ]);
    expect(result.deleted).toBe(true);
    expect(result.alertOwners.sort()).toEqual([owner.id, reader.id].sort());
    expect(await store.alerts.countOnSymbols([`${symbol}_BUY`, `${symbol}_SELL`])).toBe(0);
    expect((await store.alerts.listByUser(reader.id)).map((a) => a.commodityType)).toEqual([
      "GC_BUY",
    ]);
    // An id that is not stored deletes no alerts either.
    await store.alerts.create(reader.id, settings, 2);
    expect(await store.spreads.delete(created.spread.id, [`${symbol}_BUY`])).toEqual({
      deleted: false,
      alertOwners: [],
    });
    expect(await store.alerts.countOnSymbols([`${symbol}_BUY`])).toBe(1);
  });

  it("a user's definitions go with their account", async () => {
    const { store } = current();
    const trader = await store.users.create({ username: "trader", passwordHash: "h" });
    await store.spreads.create(trader.id, CALENDAR, 1, LIMITS);
    await store.users.delete(trader.id, 2);
    expect(await store.spreads.list()).toEqual([]);
  });

  it("refuses past either limit, atomically: parallel creates on two instances never overshoot", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    const one = await store.users.create({ username: "one", passwordHash: "h" });
    const two = await store.users.create({ username: "two", passwordHash: "h" });
    const limits = { perOwner: 3, total: 5 };
    const mine = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? store : other).spreads.create(one.id, CALENDAR, i, limits),
      ),
    );
    expect(mine.filter((r) => r.kind === "created")).toHaveLength(3);
    expect(mine.filter((r) => r.kind === "full")).toEqual(
      Array.from({ length: 3 }, () => ({ kind: "full", limit: "owner" })),
    );
    const theirs = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        (i % 2 ? store : other).spreads.create(two.id, CALENDAR, i, limits),
      ),
    );
    expect(theirs.filter((r) => r.kind === "created")).toHaveLength(2);
    expect(theirs.filter((r) => r.kind === "full")).toEqual(
      Array.from({ length: 2 }, () => ({ kind: "full", limit: "total" })),
    );
    expect((await store.spreads.list()).length).toBe(5);
    expect(await store.spreads.countByOwner(one.id)).toBe(3);
    expect(await store.spreads.countByOwner(two.id)).toBe(2);
  });
});
