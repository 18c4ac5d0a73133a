import {
  applyQuote,
  calculateSymbol,
  emptyPrices,
  QUOTE_KEYS,
  QUOTE_SOURCES,
  type Quote,
  SPREAD_SYMBOLS,
  type SpreadDefinition,
  symbolsAffectedBy,
} from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/index.ts";
import { seededRandom } from "../feeds/simulator/random.ts";
import { dutiesFrom } from "../server.ts";
import { builtInDefinitions } from "../spreads/built-ins.ts";
import { userDefinition } from "../spreads/definition-fixture.ts";
import { SpreadRegistry } from "../spreads/registry.ts";
import { type HubUpdate, MarketHub } from "./hub.ts";

const duties = dutiesFrom(loadConfig({ DATA_DIR: "/nonexistent" }));

/** A hub over the built-ins and `stored` (which the test may change and reload), every key in use. */
async function hubWith(initial: SpreadDefinition[]) {
  const stored = { list: initial };
  const spreads = new SpreadRegistry({
    builtIns: builtInDefinitions(duties),
    load: async () => stored.list,
  });
  await spreads.reload();
  const hub = new MarketHub(duties, undefined, () => true, spreads);
  const changed: string[][] = [];
  spreads.subscribe((change) => changed.push([...hub.spreadsChanged(change)]));
  const updates: HubUpdate[] = [];
  hub.subscribe((update) => updates.push({ ...update, symbols: [...update.symbols] }));
  return {
    hub,
    changed,
    updates,
    async store(list: SpreadDefinition[]) {
      stored.list = list;
      await spreads.reload();
    },
  };
}

const book = (source: "cme" | "mcx", key: string, bid: number, ask: number, ts = 1): Quote => ({
  source,
  key,
  bid,
  ask,
  ts,
});
const USDINR: Quote = { source: "fx", key: "USDINR", price: 88, ts: 1 };

const RATIO = userDefinition(1, 10, { g: "GOLD", s: "SILVER" }, "g / s");
const CALENDAR = userDefinition(2, 11, { a: "GOLD", b: "GOLD@next" }, "a - b");
const CRUDE = userDefinition(3, 10, { m: "CRUDEOIL", b: "BZ", fx: "USDINR" }, "m - b * fx", true);

describe("MarketHub with spread definitions", () => {
  it("recomputes for a quote exactly the definitions with a leg on its instrument", async () => {
    const { hub, updates } = await hubWith([RATIO, CALENDAR, CRUDE]);
    hub.state();
    let before = hub.evaluations;
    hub.ingest(book("mcx", "GOLD", 100, 101));
    // GOLD feeds the GC parity, the ratio and the calendar: three definitions, six symbols.
    expect(updates.at(-1)?.symbols).toEqual([
      "GC_BUY",
      "GC_SELL",
      "SP1_BUY",
      "SP1_SELL",
      "SP2_BUY",
      "SP2_SELL",
    ]);
    // Each is evaluated once, when first read (here every entry, by the next snapshot).
    expect(hub.evaluations - before).toBe(0);
    hub.state();
    hub.snapshotFor(10);
    hub.snapshotFor(11);
    expect(hub.evaluations - before).toBe(3);
    before = hub.evaluations;
    hub.ingest(book("mcx", "ZINC", 250, 251));
    hub.state();
    expect(hub.evaluations - before).toBe(0);
    expect(updates.at(-1)?.symbols).toEqual([]);
    before = hub.evaluations;
    hub.ingest(USDINR);
    // The five parities and the crude spread, nothing else.
    expect(new Set(updates.at(-1)?.symbols)).toEqual(
      new Set([...SPREAD_SYMBOLS, "SP3_BUY", "SP3_SELL"]),
    );
    // A listener reading one value evaluates its definition alone, once.
    expect(updates.at(-1)?.calculations.SP3_BUY).toBeUndefined(); // BZ has no price yet
    expect(hub.entry("SP3_SELL")).toBeUndefined();
    expect(hub.evaluations - before).toBe(1);
    hub.state();
    expect(hub.evaluations - before).toBe(6);
  });

  it("gives each definition BUY and SELL with mid and the legs' prices", async () => {
    const { hub } = await hubWith([RATIO]);
    hub.ingest(book("mcx", "GOLD", 100, 101));
    hub.ingest(book("mcx", "SILVER", 50, 51));
    expect(hub.entry("SP1_BUY")).toEqual({
      symbol: "SP1_BUY",
      spread: 101 / 50,
      mid: 100.5 / 50.5,
      legs: {
        g: { price: 101, side: "ask", instrument: "GOLD" },
        s: { price: 50, side: "bid", instrument: "SILVER" },
      },
    });
    expect(hub.entry("SP1_SELL")).toEqual({
      symbol: "SP1_SELL",
      spread: 100 / 51,
      mid: 100.5 / 50.5,
      legs: {
        g: { price: 100, side: "bid", instrument: "GOLD" },
        s: { price: 51, side: "ask", instrument: "SILVER" },
      },
    });
  });

  it("has no entry while a leg is missing or crossed, or the formula divides by zero", async () => {
    const DIVIDE = userDefinition(4, 10, { a: "GOLD", b: "SILVER" }, "1 / (a - b)");
    const { hub } = await hubWith([RATIO, DIVIDE]);
    hub.ingest(book("mcx", "GOLD", 100, 101));
    // SILVER has no price yet.
    expect(hub.entry("SP1_BUY")).toBeUndefined();
    expect(hub.entry("SP1_SELL")).toBeUndefined();
    // BUY takes GOLD at its bid and SILVER at its ask: 1 / (100 − 100) has no value, SELL has.
    hub.ingest(book("mcx", "SILVER", 99, 100));
    expect(hub.entry("SP4_BUY")).toBeUndefined();
    expect(hub.entry("SP4_SELL")?.spread).toBe(1 / (101 - 99));
    expect(hub.entry("SP1_BUY")?.spread).toBe(101 / 99);
    expect(JSON.stringify(hub.snapshotFor(10).calculations)).not.toMatch(/Infinity|NaN|null/);
    // A crossed SILVER book: neither side of either definition.
    hub.ingest(book("mcx", "SILVER", 102, 100));
    for (const symbol of ["SP1_BUY", "SP1_SELL", "SP4_BUY", "SP4_SELL"])
      expect(hub.entry(symbol), symbol).toBeUndefined();
    expect(Object.keys(hub.snapshotFor(10).calculations)).not.toContain("SP1_BUY");
    // Uncrossed again: the values come back.
    hub.ingest(book("mcx", "SILVER", 98, 99));
    expect(hub.snapshotFor(10).calculations.SP1_BUY?.spread).toBe(101 / 98);
  });

  it("keeps a private definition's entries out of everyone's snapshot but its owner's", async () => {
    const { hub } = await hubWith([RATIO, CALENDAR, CRUDE]);
    for (const quote of [
      book("mcx", "GOLD", 100, 101),
      book("mcx", "GOLD@next", 102, 103),
      book("mcx", "SILVER", 50, 51),
      book("mcx", "CRUDEOIL", 5400, 5401),
      book("cme", "BZ", 60, 61),
      USDINR,
    ])
      hub.ingest(quote);
    const symbols = (viewer?: number) =>
      Object.keys(
        viewer === undefined ? hub.snapshot().calculations : hub.snapshotFor(viewer).calculations,
      );
    // Everybody: the built-ins with a value (GOLD's parity lacks GC) and the shared crude spread.
    expect(symbols()).toEqual(expect.arrayContaining(["SP3_BUY", "SP3_SELL"]));
    expect(symbols()).not.toContain("SP1_BUY");
    expect(symbols()).not.toContain("SP2_BUY");
    expect(symbols(10)).toEqual(expect.arrayContaining(["SP1_BUY", "SP1_SELL", "SP3_BUY"]));
    expect(symbols(10)).not.toContain("SP2_BUY");
    expect(symbols(11)).toEqual(expect.arrayContaining(["SP2_BUY", "SP2_SELL", "SP3_SELL"]));
    expect(symbols(11)).not.toContain("SP1_SELL");
    expect(symbols(12)).toEqual(symbols());
    expect(hub.state().owned.get(10)).toEqual({
      SP1_BUY: hub.entry("SP1_BUY"),
      SP1_SELL: hub.entry("SP1_SELL"),
    });
  });

  it("adds, recomputes and removes entries as the registry changes", async () => {
    const { hub, changed, store } = await hubWith([]);
    hub.ingest(book("mcx", "GOLD", 100, 101));
    hub.ingest(book("mcx", "SILVER", 50, 51));
    // A definition stored now has its value at once, before any further quote.
    await store([RATIO]);
    expect(changed.at(-1)).toEqual(["SP1_BUY", "SP1_SELL"]);
    expect(hub.snapshotFor(10).calculations.SP1_BUY?.spread).toBe(101 / 50);
    // Its formula changed: the new one's value.
    await store([{ ...RATIO, formula: "s / g", updatedAt: 2 }]);
    expect(changed.at(-1)).toEqual(["SP1_BUY", "SP1_SELL"]);
    expect(hub.snapshotFor(10).calculations.SP1_BUY?.spread).toBe(51 / 100);
    // Published to everybody: it moves from its owner's entries to everyone's.
    await store([{ ...RATIO, formula: "s / g", shared: true, updatedAt: 3 }]);
    expect(hub.snapshot().calculations.SP1_BUY?.spread).toBe(51 / 100);
    expect(hub.state().owned.has(10)).toBe(false);
    // Private again, then deleted: gone from every snapshot and from the quote index.
    await store([{ ...RATIO, updatedAt: 4 }]);
    expect(hub.snapshot().calculations.SP1_BUY).toBeUndefined();
    expect(hub.snapshotFor(10).calculations.SP1_BUY?.spread).toBe(101 / 50);
    await store([]);
    expect(changed.at(-1)).toEqual(["SP1_BUY", "SP1_SELL"]);
    expect(hub.entry("SP1_BUY")).toBeUndefined();
    expect(hub.snapshotFor(10).calculations.SP1_BUY).toBeUndefined();
    expect(hub.state().owned.size).toBe(0);
    const before = hub.evaluations;
    hub.ingest(book("mcx", "SILVER", 52, 53));
    hub.state();
    expect(hub.evaluations - before).toBe(1); // the SI parity only
  });

  it("lets a listener read every quote's value while kept entries stay as they were given", async () => {
    const { hub } = await hubWith([RATIO, CRUDE]);
    const read: Array<{ spread?: number; mid?: number; legs?: unknown }> = [];
    hub.subscribe((update) => {
      const entry = update.calculations.SP1_BUY;
      read.push({ spread: entry?.spread, mid: entry?.mid, legs: entry?.legs });
    });
    hub.ingest(book("mcx", "SILVER", 50, 51));
    hub.ingest(book("mcx", "GOLD", 100, 101));
    const snapshot = hub.snapshotFor(10);
    const kept = hub.entry("SP1_BUY");
    const given = JSON.stringify([snapshot.calculations.SP1_BUY, kept]);
    expect(kept).toEqual({
      symbol: "SP1_BUY",
      spread: 101 / 50,
      mid: 100.5 / 50.5,
      legs: {
        g: { price: 101, side: "ask", instrument: "GOLD" },
        s: { price: 50, side: "bid", instrument: "SILVER" },
      },
    });
    for (const [bid, ask] of [
      [102, 103],
      [104, 105],
      [106, 107],
    ] as const) {
      hub.ingest(book("mcx", "GOLD", bid, ask));
      // Each quote's listener read that quote's value, legs and all.
      expect(read.at(-1)).toEqual({
        spread: ask / 50,
        mid: (bid + ask) / 2 / 50.5,
        legs: {
          g: { price: ask, side: "ask", instrument: "GOLD" },
          s: { price: 50, side: "bid", instrument: "SILVER" },
        },
      });
    }
    // What the snapshot and hub.entry gave is unchanged by the quotes after it.
    expect(JSON.stringify([snapshot.calculations.SP1_BUY, kept])).toBe(given);
    // The next entry kept is a new object with the latest numbers; asked again, the same one.
    const latest = hub.entry("SP1_BUY");
    expect(latest).not.toBe(kept);
    expect(latest?.spread).toBe(107 / 50);
    expect(hub.entry("SP1_BUY")).toBe(latest);
    // A leg gone crossed: the listener reads no value, and a kept entry is still the old one.
    hub.ingest(book("mcx", "SILVER", 52, 51));
    expect(read.at(-1)).toEqual({ spread: undefined, mid: undefined, legs: undefined });
    expect(latest?.spread).toBe(107 / 50);
  });

  it("keeps every definition's numbers apart when hundreds are loaded, changed and removed", async () => {
    // Enough definitions that the hub lays its one array of their numbers out anew, twice; odd
    // ones on other legs, so one read in another's place would show.
    const many = (count: number, scale: number) =>
      Array.from({ length: count }, (_, i) =>
        userDefinition(
          i + 1,
          10,
          i % 2 === 0 ? { g: "GOLD", s: "SILVER" } : { g: "COPPER", s: "ZINC" },
          `g / s * ${i + scale}`,
          false,
          scale,
        ),
      );
    const { hub, store } = await hubWith(many(500, 1));
    hub.ingest(book("mcx", "GOLD", 100, 101));
    hub.ingest(book("mcx", "SILVER", 50, 51));
    hub.ingest(book("mcx", "COPPER", 900, 901));
    hub.ingest(book("mcx", "ZINC", 250, 251));
    const check = (count: number, scale: number, ask = 101) => {
      // Every definition evaluated first (the owner's snapshot), then each read back.
      hub.snapshotFor(10);
      for (let i = 0; i < count; i++) {
        const entry = hub.entry(`SP${i + 1}_BUY`);
        const [g, s] = i % 2 === 0 ? [ask, 50] : [901, 250];
        expect(entry?.spread).toBe((g / s) * (i + scale));
        expect(entry && "legs" in entry && entry.legs.g?.price).toBe(g);
      }
    };
    check(500, 1);
    await store(many(900, 2));
    check(900, 2);
    hub.ingest(book("mcx", "GOLD", 102, 103));
    check(900, 2, 103);
    await store(many(300, 3));
    check(300, 3, 103);
    expect(hub.entry("SP301_BUY")).toBeUndefined();
  });

  it("publishes a definition's changes at most once per definitionEveryMs, and its latest when due", async () => {
    let now = 0;
    const spreads = new SpreadRegistry({
      builtIns: builtInDefinitions(duties),
      load: async () => [{ ...RATIO, shared: true }],
    });
    await spreads.reload();
    const hub = new MarketHub(duties, undefined, () => true, spreads, {
      definitionEveryMs: 1000,
      now: () => now,
    });
    for (const quote of [
      book("mcx", "GOLD", 100, 101),
      book("mcx", "SILVER", 50, 51),
      book("cme", "GC", 4000, 4001),
      USDINR,
    ])
      hub.ingest(quote);
    // First published at once.
    expect(hub.snapshot().calculations.SP1_BUY?.spread).toBe(101 / 50);
    now = 100;
    hub.ingest(book("mcx", "GOLD", 110, 111));
    // Listeners read it as it is; snapshots show the built-in's new value, the definition's old.
    expect(hub.entry("SP1_BUY")?.spread).toBe(111 / 50);
    expect(hub.snapshot().calculations.GC_BUY?.mcx).toBe(111);
    expect(hub.snapshot().calculations.SP1_BUY?.spread).toBe(101 / 50);
    expect(hub.heldBackUntil).toBe(1000);
    now = 600;
    hub.ingest(book("mcx", "GOLD", 120, 121));
    now = 999;
    expect(hub.snapshot().calculations.SP1_BUY?.spread).toBe(101 / 50);
    // Due: the latest value, with no quote since.
    now = 1000;
    expect(hub.snapshot().calculations.SP1_BUY?.spread).toBe(121 / 50);
    expect(hub.heldBackUntil).toBeUndefined();
    expect(hub.state().released).toEqual(["SP1_BUY", "SP1_SELL"]);
  });

  it("gives the built-in spreads exactly today's entries and symbols, over random quotes", () => {
    const hub = new MarketHub(duties);
    const prices = emptyPrices();
    const random = seededRandom(5);
    let symbols: readonly string[] = [];
    hub.subscribe((update) => {
      symbols = update.symbols;
    });
    let compared = 0;
    for (let ts = 1; ts <= 4_000; ts++) {
      const source = QUOTE_SOURCES[Math.floor(random() * QUOTE_SOURCES.length)] as Quote["source"];
      const keys = QUOTE_KEYS[source];
      const key = keys[Math.floor(random() * keys.length)] as string;
      const price = 40 + random() * 100_000;
      const roll = random();
      const quote: Quote =
        source !== "cme" && source !== "mcx"
          ? { source, key, price, ts }
          : roll < 0.1
            ? { source, key, bid: price + 1, ask: price, ts }
            : roll < 0.2
              ? { source, key, ask: null, ts }
              : { source, key, bid: price, ask: price + random(), ts };
      if (!hub.ingest(quote)) continue;
      applyQuote(prices, quote);
      expect(symbols).toEqual(symbolsAffectedBy(quote));
      for (const symbol of SPREAD_SYMBOLS) {
        const today = calculateSymbol(symbol, prices, duties);
        // The same fields in the same order with the same doubles: the same bytes on the wire.
        expect(JSON.stringify(hub.entry(symbol))).toBe(JSON.stringify(today));
        if (today) compared++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });
});
