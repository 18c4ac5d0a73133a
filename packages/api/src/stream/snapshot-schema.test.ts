import { describe, expect, it } from "vitest";
import { marketCalculations } from "./snapshot-schema.ts";

const entry = {
  symbol: "SP7_BUY",
  spread: 1.5,
  mid: 1.4,
  legs: {
    g: { price: 101, side: "ask", instrument: "GOLD" },
    s: { price: 50, side: "bid", instrument: "SILVER" },
  },
};

describe("marketCalculations", () => {
  it("keeps a definition's entries as they are, next to the built-ins'", () => {
    const calculations = {
      timestamp: 5,
      SP7_BUY: entry,
      SP7_SELL: { ...entry, symbol: "SP7_SELL" },
    };
    expect(JSON.stringify(marketCalculations.parse(calculations))).toBe(
      JSON.stringify(calculations),
    );
    const { mid: _mid, ...noMid } = entry;
    expect(marketCalculations.parse({ timestamp: 5, SP7_BUY: noMid })).toEqual({
      timestamp: 5,
      SP7_BUY: noMid,
    });
  });

  it("refuses an entry that is not a definition's", () => {
    for (const bad of [
      { ...entry, symbol: "GC_BUY" },
      { ...entry, spread: Number.POSITIVE_INFINITY },
      { ...entry, legs: { g: { price: 1, side: "mid", instrument: "GOLD" } } },
      { symbol: "SP7_BUY", spread: 1 },
    ])
      expect(
        () => marketCalculations.parse({ timestamp: 5, SP7_BUY: bad }),
        JSON.stringify(bad),
      ).toThrow();
  });
});
