import { describe, expect, it } from "vitest";
import { applyStreamMessage, type MarketSnapshot, type MarketStreamMessage } from "./applyDelta.ts";

const book = (bid: number, timestamp: number) => ({ bid, ask: bid + 1, timestamp });
const state = {
  prices: {
    cme: { GC: book(1, 1), HG: book(3, 1) },
    mcx: { GOLD: book(2, 1), ZINC: book(4, 1) },
    spot: {},
    zerodha: { nifty50: { price: 5, timestamp: 1 } },
    fx: {},
    contracts: { ZINC: { symbol: "ZINC26DEC" }, GOLD: { symbol: "GOLD26FEB" } },
    timestamp: 1,
  },
  calculations: { GC_BUY: { spread: 1 }, timestamp: 1 },
} as unknown as MarketSnapshot;

/** A new connection's snapshot that left ZINC and NIFTY50 out. */
const snapshot = {
  kind: "snapshot",
  prices: {
    cme: { GC: book(10, 2), HG: book(30, 2) },
    mcx: { GOLD: book(20, 2) },
    spot: {},
    zerodha: {},
    fx: {},
    contracts: { GOLD: { symbol: "GOLD26APR" } },
    timestamp: 2,
  },
  calculations: { GC_BUY: { spread: 9 }, timestamp: 2 },
} as unknown as MarketStreamMessage;

describe("applyStreamMessage", () => {
  it("replaces the state with a snapshot, dropping what it does not carry", () => {
    const next = applyStreamMessage(state, snapshot);
    expect(next?.prices.mcx).toEqual({ GOLD: book(20, 2) });
    expect(next?.prices.zerodha).toEqual({});
  });

  it("keeps the entries and contracts of instruments left out of the stream, as they were", () => {
    const next = applyStreamMessage(state, snapshot, ["ZINC", "NIFTY50"]);
    expect(next?.prices.mcx).toEqual({ GOLD: book(20, 2), ZINC: book(4, 1) });
    expect(next?.prices.zerodha).toEqual({ nifty50: { price: 5, timestamp: 1 } });
    expect(next?.prices.contracts).toEqual({
      GOLD: { symbol: "GOLD26APR" },
      ZINC: { symbol: "ZINC26DEC" },
    });
    // Everything the snapshot carries is the snapshot's.
    expect(next?.prices.cme).toEqual({ GC: book(10, 2), HG: book(30, 2) });
    expect(next?.calculations).toEqual({ GC_BUY: { spread: 9 }, timestamp: 2 });
  });

  it("takes the snapshot's entry over a kept one, and keeps nothing without a state", () => {
    const next = applyStreamMessage(state, snapshot, ["GOLD"]);
    expect(next?.prices.mcx).toEqual({ GOLD: book(20, 2) });
    expect(applyStreamMessage(undefined, snapshot, ["ZINC"])?.prices.mcx).toEqual({
      GOLD: book(20, 2),
    });
  });

  it("folds a delta in and removes the entries it sends as null", () => {
    const delta = {
      kind: "delta",
      prices: { cme: { HG: null, GC: book(11, 3) }, timestamp: 3 },
      calculations: { GC_BUY: null, timestamp: 3 },
    } as unknown as MarketStreamMessage;
    const next = applyStreamMessage(state, delta);
    expect(next?.prices.cme).toEqual({ GC: book(11, 3) });
    expect(next?.prices.mcx).toBe(state.prices.mcx);
    expect(next?.calculations).toEqual({ timestamp: 3 });
    expect(applyStreamMessage(undefined, delta)).toBeUndefined();
  });
});
