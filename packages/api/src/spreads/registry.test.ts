import {
  applyQuote,
  bookIn,
  calculateSymbol,
  defaultDuties,
  emptyPrices,
  evaluateDefinition,
  SPREAD_SYMBOLS,
  type SpreadDefinition,
} from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import { builtInDefinitions } from "./built-ins.ts";
import { SpreadRegistry } from "./registry.ts";

const duties = defaultDuties();

const ratio = (id: number, ownerId: number, shared = false): SpreadDefinition => ({
  id,
  symbol: `SP${id}`,
  name: "Gold/silver",
  legs: [
    { name: "g", instrument: "GOLD" },
    { name: "s", instrument: "SILVER" },
  ],
  formula: "g / s",
  shared,
  builtin: false,
  ownerId,
  createdAt: id,
  updatedAt: id,
});

describe("the built-in spreads as definitions", () => {
  it("give every built-in executable symbol's number to the last digit", () => {
    const registry = new SpreadRegistry({ builtIns: builtInDefinitions(duties) });
    const prices = emptyPrices();
    for (const quote of [
      { source: "cme", key: "GC", bid: 4012.3, ask: 4012.9, ts: 1 },
      { source: "cme", key: "SI", bid: 48.731, ask: 48.77, ts: 1 },
      { source: "cme", key: "HG", bid: 5.0215, ask: 5.0225, ts: 1 },
      { source: "cme", key: "NG", bid: 4.301, ask: 4.305, ts: 1 },
      { source: "cme", key: "CL", bid: 61.01, ask: 61.04, ts: 1 },
      { source: "mcx", key: "GOLD", bid: 127_010, ask: 127_030, ts: 1 },
      { source: "mcx", key: "SILVER", bid: 151_200, ask: 151_260, ts: 1 },
      { source: "mcx", key: "COPPER", bid: 1003.15, ask: 1003.4, ts: 1 },
      { source: "mcx", key: "NATURALGAS", bid: 381.2, ask: 381.5, ts: 1 },
      { source: "mcx", key: "CRUDEOIL", bid: 5405, ask: 5408, ts: 1 },
      { source: "fx", key: "USDINR", price: 88.6123, ts: 1 },
    ] as const)
      applyQuote(prices, quote);
    for (const symbol of SPREAD_SYMBOLS) {
      const found = registry.executable(symbol);
      const checked = found?.spread.checked;
      if (!found || !checked) throw new Error(`${symbol} is not a built-in definition`);
      const value = evaluateDefinition(checked, (key) => bookIn(prices, key))[found.side];
      expect(value?.spread, symbol).toBe(calculateSymbol(symbol, prices, duties)?.spread);
    }
  });

  it("has no executable sides for the mid-only spreads", () => {
    const registry = new SpreadRegistry({ builtIns: builtInDefinitions(duties) });
    expect(registry.executable("NIFTY_BUY")).toBeUndefined();
    expect(registry.bySymbolName("NIFTY")?.builtin).toBe(true);
  });
});

describe("SpreadRegistry", () => {
  it("shows built-ins, shared definitions and a user's own, never another user's private one", async () => {
    const stored = [ratio(1, 10), ratio(2, 11), ratio(3, 11, true)];
    const registry = new SpreadRegistry({
      builtIns: builtInDefinitions(duties),
      load: async () => stored,
    });
    await registry.reload();
    const symbols = registry.visibleTo({ id: 10 }).map((s) => s.symbol);
    expect(symbols).toEqual(expect.arrayContaining(["GC", "NIFTY", "SP1", "SP3"]));
    expect(symbols).not.toContain("SP2");
    expect(registry.canSee({ id: 10 }, "SP2_BUY")).toBe(false);
    expect(registry.canSee({ id: 11 }, "SP2_SELL")).toBe(true);
    expect(registry.canSee({ id: 10 }, "SP3")).toBe(true);
  });

  it("tells listeners what a reload added, changed and removed", async () => {
    let stored = [ratio(1, 10), ratio(2, 10)];
    const registry = new SpreadRegistry({ builtIns: [], load: async () => stored });
    const changes: string[][] = [];
    registry.subscribe(({ added, changed, removed }) =>
      changes.push([added, changed, removed].map((list) => list.map((s) => s.symbol).join())),
    );
    await registry.reload();
    stored = [{ ...ratio(1, 10), formula: "s / g", updatedAt: 99 }, ratio(4, 10)];
    await registry.reload();
    await registry.reload();
    expect(changes).toEqual([
      ["SP1,SP2", "", ""],
      ["SP4", "SP1", "SP2"],
    ]);
    expect(registry.bySymbolName("SP1")?.checked?.compiled.directions).toEqual({ g: -1, s: 1 });
  });

  it("keeps a stored definition that no longer checks, with no compiled formula", async () => {
    const broken = { ...ratio(5, 10), formula: "g / unknown" };
    const registry = new SpreadRegistry({ builtIns: [], load: async () => [broken] });
    await registry.reload();
    expect(registry.bySymbolName("SP5")?.checked).toBeNull();
  });
});
