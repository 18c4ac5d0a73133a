import type { InstrumentSpec } from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import { STORE_KINDS, useStore } from "../testing/stores.ts";

const ZINC: InstrumentSpec = {
  key: "ZINC",
  exchange: "MCX",
  name: "Zinc",
  unit: "INR / kg",
  currency: "INR",
  lotUnits: 5000,
  tick: 0.05,
  decimals: 2,
  month: "near",
};

const BRENT_NEXT: InstrumentSpec = {
  key: "BZ@next",
  exchange: "NYMEX",
  name: "Brent Crude Oil (next month)",
  unit: "USD / bbl",
  currency: "USD",
  lotUnits: 1000,
  tick: 0.01,
  decimals: 3,
  month: "next",
  source: { provider: "yahoo", symbol: "BZG27.NYM" },
};

describe.each(STORE_KINDS)("instruments (%s)", (kind) => {
  const current = useStore(kind);

  it("adds, lists (oldest first, with its source), and removes; another instance sees the same", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    const admin = await store.users.create({ username: "admin", passwordHash: "h" });
    expect(await store.instruments.add(BRENT_NEXT, admin.id, 20)).toBe("added");
    expect(await store.instruments.add(ZINC, null, 10)).toBe("added");
    expect(await other.instruments.list()).toEqual([
      { ...ZINC, createdAt: 10, createdBy: null },
      { ...BRENT_NEXT, createdAt: 20, createdBy: admin.id },
    ]);
    expect(await store.instruments.count()).toBe(2);
    expect(await other.instruments.remove("ZINC")).toBe(true);
    expect(await store.instruments.remove("ZINC")).toBe(false);
    expect((await store.instruments.list()).map((i) => i.key)).toEqual(["BZ@next"]);
    // The admin's account going does not take their instruments with it.
    await store.users.delete(admin.id, 30);
    expect(await store.instruments.list()).toEqual([
      { ...BRENT_NEXT, createdAt: 20, createdBy: null },
    ]);
  });

  it("adds a key once, whoever asks at the same time, and keeps the first spec", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    const results = await Promise.all([
      store.instruments.add(ZINC, null, 1),
      other.instruments.add({ ...ZINC, name: "Zinc again" }, null, 2),
      store.instruments.add(ZINC, null, 3),
    ]);
    expect(results.filter((r) => r === "added")).toHaveLength(1);
    expect(results.filter((r) => r === "exists")).toHaveLength(2);
    expect(await store.instruments.count()).toBe(1);
  });

  it("refuses past the limit, atomically: parallel adds never overshoot it", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    expect(await store.instruments.add(ZINC, null, 1, 3)).toBe("added");
    const keys = ["LEAD", "NICKEL", "ALUMINIUM", "GOLDM", "SILVERM"];
    const results = await Promise.all(
      keys.map((key, i) =>
        (i % 2 === 0 ? store : other).instruments.add({ ...ZINC, key }, null, 2, 3),
      ),
    );
    expect(results.filter((r) => r === "added")).toHaveLength(2);
    expect(results.filter((r) => r === "full")).toHaveLength(3);
    expect(await store.instruments.count()).toBe(3);
    // A key already stored is "exists" even at the limit: the caller says which problem it is.
    expect(await store.instruments.add(ZINC, null, 3, 3)).toBe("exists");
  });
});

describe.each(STORE_KINDS)("contracts and rolls (%s)", (kind) => {
  const current = useStore(kind);

  it("records a roll only when a key's contract changes, first sighting included as none", async () => {
    const { store } = current();
    const { contracts } = store;
    expect(await contracts.observe("GOLD", "GOLD26FEBFUT", "2026-02-05", 100)).toBeUndefined();
    expect(await contracts.observe("GOLD", "GOLD26FEBFUT", "2026-02-05", 200)).toBeUndefined();
    expect(await contracts.observe("GC", "GCG26", undefined, 150)).toBeUndefined();
    expect(await contracts.observe("GOLD", "GOLD26APRFUT", "2026-04-03", 300)).toEqual({
      key: "GOLD",
      at: 300,
      from: "GOLD26FEBFUT",
      to: "GOLD26APRFUT",
    });
    expect(await contracts.observe("GOLD", "GOLD26APRFUT", "2026-04-03", 400)).toBeUndefined();
    expect(await contracts.observe("GC", "GCJ26", undefined, 500)).toMatchObject({
      from: "GCG26",
      to: "GCJ26",
    });
    const all = { from: 0, to: 1_000, limit: 100 };
    expect(await contracts.rolls(all)).toEqual([
      { key: "GOLD", at: 300, from: "GOLD26FEBFUT", to: "GOLD26APRFUT" },
      { key: "GC", at: 500, from: "GCG26", to: "GCJ26" },
    ]);
    expect(await contracts.rolls({ ...all, key: "GC" })).toEqual([
      { key: "GC", at: 500, from: "GCG26", to: "GCJ26" },
    ]);
    // [from, to): the window's end is not in it.
    expect(await contracts.rolls({ ...all, from: 300, to: 500 })).toHaveLength(1);
    expect(await contracts.rolls({ ...all, key: "SILVER" })).toEqual([]);
    // The latest `limit`, still oldest first.
    expect((await contracts.rolls({ ...all, limit: 1 })).map((r) => r.key)).toEqual(["GC"]);
  });

  it("records one roll when two instances see the same change at once", async () => {
    const { store, openAnother } = current();
    const other = await openAnother();
    await store.contracts.observe("CRUDEOIL", "CRUDEOIL26FEBFUT", "2026-02-18", 1);
    const seen = await Promise.all([
      store.contracts.observe("CRUDEOIL", "CRUDEOIL26MARFUT", "2026-03-19", 2),
      other.contracts.observe("CRUDEOIL", "CRUDEOIL26MARFUT", "2026-03-19", 2),
    ]);
    expect(seen.filter((roll) => roll !== undefined)).toHaveLength(1);
    expect(await store.contracts.rolls({ from: 0, to: 10, limit: 10 })).toHaveLength(1);
  });
});

describe.each(STORE_KINDS)("alerts on symbols (%s)", (kind) => {
  const current = useStore(kind);

  it("counts every user's alerts on the given symbols, enabled or not", async () => {
    const { store } = current();
    const alice = await store.users.create({ username: "alice", passwordHash: "h" });
    const bob = await store.users.create({ username: "bob", passwordHash: "h" });
    const settings = {
      threshold: 1,
      soundId: "beep",
      enabled: true,
      telegramNotify: false,
      maxNotifications: 1,
    };
    await store.alerts.create(alice.id, { ...settings, commodityType: "GC_BUY" }, 1);
    await store.alerts.create(bob.id, { ...settings, commodityType: "GC_SELL", enabled: false }, 1);
    await store.alerts.create(bob.id, { ...settings, commodityType: "SI_BUY" }, 1);
    expect(await store.alerts.countOnSymbols(["GC_BUY", "GC_SELL"])).toBe(2);
    expect(await store.alerts.countOnSymbols(["CL_BUY"])).toBe(0);
    expect(await store.alerts.countOnSymbols([])).toBe(0);
    const listed = await store.alerts.listOnSymbols(["GC_BUY", "GC_SELL"]);
    expect(listed.map(({ commodityType, username }) => [commodityType, username])).toEqual([
      ["GC_BUY", "alice"],
      ["GC_SELL", "bob"],
    ]);
    expect(listed[0]).toMatchObject({ metric: "spread", threshold: 1 });
    expect(await store.alerts.listOnSymbols([])).toEqual([]);
  });
});
