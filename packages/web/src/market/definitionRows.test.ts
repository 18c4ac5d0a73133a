import { describe, expect, it } from "vitest";
import {
  definitionDecimals,
  definitionEntry,
  definitionInputs,
  legText,
  sourceOf,
} from "./definitionRows.ts";
import { BOOK, PRICE, PRICES } from "./quotes.fixture.ts";

const perLot = {
  units: 1,
  grossInr: 1000,
  costsInr: 10,
  netInr: 990,
  breakdown: {},
};

describe("definitionEntry", () => {
  it("reads a definition side's entry with its legs and per-lot figures", () => {
    const entry = {
      symbol: "SP7_BUY",
      spread: -12.5,
      legs: { a: { price: 100, side: "ask", instrument: "GOLD" } },
      perLot,
    };
    expect(definitionEntry({ SP7_BUY: entry }, "SP7_BUY")).toEqual(entry);
  });

  it("is no entry without a finite spread", () => {
    expect(definitionEntry({}, "SP7_BUY")).toBeUndefined();
    expect(definitionEntry({ SP7_BUY: null }, "SP7_BUY")).toBeUndefined();
    expect(definitionEntry({ SP7_BUY: { spread: "1" } }, "SP7_BUY")).toBeUndefined();
    expect(definitionEntry({ SP7_BUY: { spread: Number.NaN } }, "SP7_BUY")).toBeUndefined();
  });

  it("drops legs and per-lot figures of a shape it cannot read, keeping the spread", () => {
    const read = definitionEntry(
      {
        SP7_BUY: {
          symbol: "SP7_BUY",
          spread: 3,
          legs: { a: { price: "x" } },
          perLot: { ...perLot, netInr: Number.NaN },
        },
      },
      "SP7_BUY",
    );
    expect(read).toEqual({ symbol: "SP7_BUY", spread: 3, legs: {} });
  });
});

describe("definitionDecimals", () => {
  it("gives values under 10 four decimals (a ratio) and larger ones two", () => {
    expect(definitionDecimals(0.8123)).toBe(4);
    expect(definitionDecimals(-9.99)).toBe(4);
    expect(definitionDecimals(10)).toBe(2);
    expect(definitionDecimals(-1234.5)).toBe(2);
    expect(definitionDecimals(null)).toBe(2);
  });
});

describe("legText", () => {
  it("writes a leg as name, price and the side it was taken at", () => {
    expect(legText("g", { price: 72010, side: "ask", instrument: "GOLD" })).toBe("g 72010.00 ask");
    expect(legText("r", { price: 0.81234, side: "mid", instrument: "X" })).toBe("r 0.8123 mid");
    expect(legText("s", undefined)).toBe("s —");
  });
});

describe("a definition's inputs", () => {
  const [book, price, prices] = [BOOK, PRICE, PRICES];

  it("finds each key's group in the prices", () => {
    expect(
      ["GOLD", "GC", "USDINR", "XAUUSD", "NIFTY50", "ZINC"].map((k) => sourceOf(prices, k)),
    ).toEqual(["mcx", "cme", "fx", "spot", "index", undefined]);
  });

  it("reads a book leg at the side its entry took, a single price as it is", () => {
    const inputs = definitionInputs(
      [
        { name: "g", instrument: "GOLD" },
        { name: "u", instrument: "USDINR" },
        { name: "n", instrument: "NIFTY50" },
      ],
      {
        symbol: "SP7_BUY",
        spread: 1,
        legs: {
          g: { price: 2, side: "ask", instrument: "GOLD" },
          u: { price: 3, side: "mid", instrument: "USDINR" },
        },
      },
      prices,
    );
    expect(inputs).toEqual([
      { label: "g (GOLD)", source: "mcx", key: "GOLD", side: "ask", entry: book },
      { label: "u (USDINR)", source: "fx", key: "USDINR", entry: price },
      { label: "n (NIFTY50)", source: "index", key: "NIFTY50", entry: price },
    ]);
  });

  it("judges a book leg without an entry as a whole book, and an unquoted key as missing", () => {
    const [gold, zinc] = definitionInputs(
      [
        { name: "a", instrument: "GOLD" },
        { name: "z", instrument: "ZINC" },
      ],
      undefined,
      prices,
    );
    expect(gold).toEqual({ label: "a (GOLD)", source: "mcx", key: "GOLD", entry: book });
    expect(zinc).toEqual({ label: "z (ZINC)", source: "mcx", key: "ZINC", entry: undefined });
  });
});
