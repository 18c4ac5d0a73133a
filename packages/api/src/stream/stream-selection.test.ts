import { describe, expect, it } from "vitest";
import type { MarketStreamMessage } from "./delta.ts";
import { StreamSelection, streamSelectionInput, unknownNames } from "./stream-selection.ts";

const book = { bid: 1, ask: 2, timestamp: 5 };
const snapshot = {
  kind: "snapshot",
  prices: {
    cme: { GC: book, SI: book },
    mcx: { GOLD: book, SILVER: book },
    spot: { XAUUSD: { price: 1, timestamp: 5 } },
    zerodha: { nifty50: { price: 1, timestamp: 5 }, giftnifty: { price: 2, timestamp: 5 } },
    fx: { USDINR: { price: 84, timestamp: 5 } },
    contracts: { GOLD: { symbol: "GOLD26FEB" }, SILVER: { symbol: "SILVER26MAR" } },
    timestamp: 5,
  },
  calculations: { GC_BUY: { spread: 1 }, SI_BUY: { spread: 2 }, timestamp: 5 },
} as unknown as MarketStreamMessage;

describe("StreamSelection", () => {
  it("is the same view whatever order the client names things in", () => {
    const a = new StreamSelection({ keys: ["GOLD", "GC"], symbols: ["GC_SELL", "GC_BUY"] });
    const b = new StreamSelection({
      symbols: ["GC_BUY", "GC_SELL", "GC_BUY"],
      keys: ["GC", "GOLD"],
    });
    expect(a.id).toBe(b.id);
    expect(new StreamSelection({ keys: ["GC"] }).id).not.toBe(a.id);
  });

  it("keeps a snapshot's named keys (with their contracts), whole sections and symbols", () => {
    const selected = new StreamSelection({
      keys: ["GOLD", "NIFTY50"],
      sections: ["fx"],
      symbols: ["GC_BUY"],
    }).select(snapshot);
    expect(selected).toEqual({
      kind: "snapshot",
      prices: {
        cme: {},
        mcx: { GOLD: book },
        spot: {},
        zerodha: { nifty50: { price: 1, timestamp: 5 } },
        fx: { USDINR: { price: 84, timestamp: 5 } },
        contracts: { GOLD: { symbol: "GOLD26FEB" } },
        timestamp: 5,
      },
      calculations: { GC_BUY: { spread: 1 }, timestamp: 5 },
    });
  });

  it("drops a delta with nothing selected, and keeps removals (null) of selected entries", () => {
    const gold = new StreamSelection({ keys: ["GOLD"], symbols: ["GC_BUY"] });
    const silver = {
      kind: "delta",
      prices: { mcx: { SILVER: book }, timestamp: 6 },
      calculations: { SI_BUY: null, timestamp: 6 },
    } as unknown as MarketStreamMessage;
    expect(gold.select(silver)).toBeUndefined();
    const goneGold = {
      kind: "delta",
      prices: { mcx: { GOLD: null, SILVER: book }, timestamp: 6 },
      calculations: { GC_BUY: null, timestamp: 6 },
    } as unknown as MarketStreamMessage;
    expect(gold.select(goneGold)).toEqual({
      kind: "delta",
      prices: { mcx: { GOLD: null }, timestamp: 6 },
      calculations: { GC_BUY: null, timestamp: 6 },
    });
  });

  it("with exceptKeys keeps everything but those instruments' entries and contracts", () => {
    const allBut = new StreamSelection({ exceptKeys: ["SILVER", "NIFTY50"] });
    expect(allBut.select(snapshot)).toEqual({
      kind: "snapshot",
      prices: {
        cme: { GC: book, SI: book },
        mcx: { GOLD: book },
        spot: { XAUUSD: { price: 1, timestamp: 5 } },
        zerodha: { giftnifty: { price: 2, timestamp: 5 } },
        fx: { USDINR: { price: 84, timestamp: 5 } },
        contracts: { GOLD: { symbol: "GOLD26FEB" } },
        timestamp: 5,
      },
      calculations: { GC_BUY: { spread: 1 }, SI_BUY: { spread: 2 }, timestamp: 5 },
    });
    // A delta of only the left-out instrument is no message at all.
    const silverOnly = {
      kind: "delta",
      prices: { mcx: { SILVER: book }, timestamp: 6 },
      calculations: { timestamp: 6 },
    } as unknown as MarketStreamMessage;
    expect(allBut.select(silverOnly)).toBeUndefined();
    // Another process's copy (stream-fanout.ts) selects the same, and is not the same view as
    // a selection naming those keys.
    expect(StreamSelection.fromId(allBut.id).select(snapshot)).toEqual(allBut.select(snapshot));
    expect(new StreamSelection({ keys: ["NIFTY50", "SILVER"] }).id).not.toBe(allBut.id);
  });

  it("refuses exceptKeys beside sections, keys or symbols, and lets it name what is gone", () => {
    for (const input of [{ keys: ["GC"] }, { symbols: ["GC_BUY"] }, { sections: ["fx"] }]) {
      const parsed = streamSelectionInput.safeParse({ ...input, exceptKeys: ["GOLD"] });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/cannot be combined/);
    }
    const names = { isKey: (k: string) => k === "GOLD", isSymbol: () => false };
    expect(unknownNames({ exceptKeys: ["ZINC"] }, names)).toBeUndefined();
  });

  it("names every unknown key and symbol", () => {
    const names = { isKey: (k: string) => k === "GOLD", isSymbol: (s: string) => s === "GC_BUY" };
    expect(unknownNames({ keys: ["GOLD"], symbols: ["GC_BUY"] }, names)).toBeUndefined();
    expect(unknownNames({ keys: ["GOLD", "ZINC", "LEAD"], symbols: ["X_BUY"] }, names)).toBe(
      'keys: no instrument in use is called "ZINC", "LEAD"; symbols: no spread you can see is called "X_BUY"',
    );
  });
});
