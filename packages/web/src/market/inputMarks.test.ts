import { describe, expect, it } from "vitest";
import {
  indexSpreadInputs,
  inputMarks,
  type SpreadInput,
  spotSpreadInputs,
  spreadInputs,
} from "./inputMarks.ts";
import { AT, BOOK, PRICE, PRICES } from "./quotes.fixture.ts";

function input(label: string, marks: { delayed?: true; lastOnly?: true } = {}): SpreadInput {
  return { label, source: "cme", key: label, entry: { bid: 1, ask: 2, timestamp: AT, ...marks } };
}

describe("inputMarks", () => {
  it("marks nothing when every input is a live book", () => {
    expect(inputMarks([input("CME GC"), input("MCX GOLD")])).toEqual({});
  });

  it("names one delayed input in the singular", () => {
    expect(inputMarks([input("CME GC", { delayed: true }), input("MCX GOLD")]).delayed).toBe(
      "Computed from a delayed CME GC price: an indication, not a price to trade on.",
    );
  });

  it("lists several inputs with commas and a final 'and', in the plural", () => {
    const marks = inputMarks([
      input("CME GC", { lastOnly: true }),
      input("spot XAUUSD", { lastOnly: true }),
      input("USDINR", { lastOnly: true, delayed: true }),
    ]);
    expect(marks.lastOnly).toBe(
      "Computed from last traded CME GC, spot XAUUSD and USDINR prices: the source gave no bid/ask.",
    );
    expect(marks.delayed).toBe(
      "Computed from a delayed USDINR price: an indication, not a price to trade on.",
    );
  });

  it("marks nothing for an input with no quote yet", () => {
    expect(inputMarks([{ label: "CME GC", source: "cme", key: "GC", entry: undefined }])).toEqual(
      {},
    );
  });
});

describe("a row's inputs", () => {
  const [book, price, prices] = [BOOK, PRICE, PRICES];

  it("reads a Spread row's CME and MCX books at the sides its symbol trades, and USDINR", () => {
    const buy = spreadInputs("GC_BUY", prices);
    expect(buy.map((i) => [i.label, i.key, i.side])).toEqual([
      ["CME GC", "GC", expect.any(String)],
      ["MCX GOLD", "GOLD", expect.any(String)],
      ["USDINR", "USDINR", undefined],
    ]);
    const sell = spreadInputs("GC_SELL", prices);
    // SELL takes each book at the other side from BUY.
    expect(sell[0]?.side).not.toBe(buy[0]?.side);
    expect(sell[1]?.side).not.toBe(buy[1]?.side);
    expect(buy.map((i) => i.entry)).toEqual([book, book, price]);
  });

  it("reads a Spot Spread row's future and spot price, and the Index row's two indices", () => {
    expect(spotSpreadInputs("GC", "XAUUSD", prices).map((i) => [i.label, i.entry])).toEqual([
      ["CME GC", book],
      ["spot XAUUSD", price],
    ]);
    expect(indexSpreadInputs(prices).map((i) => [i.label, i.entry])).toEqual([
      ["GIFT NIFTY", price],
      ["NIFTY 50", price],
    ]);
  });
});
