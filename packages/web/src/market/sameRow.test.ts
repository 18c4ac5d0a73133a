import { describe, expect, it } from "vitest";
import { applyStreamMessage, type MarketSnapshot, type MarketStreamMessage } from "./applyDelta.ts";
import type { FreshnessContext } from "./freshness.ts";
import type { PriceRow } from "./priceRows.ts";
import { samePriceRow, sameSpreadRow, shallowEqual } from "./sameRow.ts";

const book = (bid: number, timestamp: number) => ({ bid, ask: bid + 1, timestamp });
const market = {
  prices: {
    cme: { GC: book(2650, 1), SI: book(31, 1) },
    mcx: { GOLD: book(76000, 1), SILVER: book(91000, 1) },
    spot: {},
    zerodha: {},
    fx: { USDINR: { price: 84, timestamp: 1 } },
    contracts: {},
    timestamp: 1,
  },
  calculations: { timestamp: 1 },
} as unknown as MarketSnapshot;

/** The market after a stream delta that moves one entry of one section only. */
function move(state: MarketSnapshot, section: string, key: string, entry: object): MarketSnapshot {
  const delta = {
    kind: "delta",
    prices: { [section]: { [key]: entry }, timestamp: 2 },
    calculations: { timestamp: 2 },
  } as unknown as MarketStreamMessage;
  return applyStreamMessage(state, delta) as MarketSnapshot;
}

const freshness: FreshnessContext = { now: 1, providers: new Map() } as unknown as FreshnessContext;
const spreadRow = (symbol: "GC_BUY" | "SI_BUY", prices: MarketSnapshot["prices"]) => ({
  symbol,
  prices,
  entry: undefined,
  freshness,
  compact: false,
});

describe("sameSpreadRow", () => {
  it("keeps a row whose legs the delta did not touch, and renders the one it did", () => {
    const next = move(market, "cme", "SI", book(32, 2));
    expect(
      sameSpreadRow(spreadRow("GC_BUY", market.prices), spreadRow("GC_BUY", next.prices)),
    ).toBe(true);
    expect(
      sameSpreadRow(spreadRow("SI_BUY", market.prices), spreadRow("SI_BUY", next.prices)),
    ).toBe(false);
  });

  it("renders a row when USDINR moves, or anything else it is given changes", () => {
    const fx = move(market, "fx", "USDINR", { price: 85, timestamp: 2 });
    const before = spreadRow("GC_BUY", market.prices);
    expect(sameSpreadRow(before, spreadRow("GC_BUY", fx.prices))).toBe(false);
    expect(sameSpreadRow(before, { ...before, freshness: { ...freshness } })).toBe(false);
    expect(sameSpreadRow(before, { ...before, compact: true })).toBe(false);
    expect(sameSpreadRow(before, { ...before })).toBe(true);
  });
});

describe("samePriceRow", () => {
  const row: PriceRow = {
    source: "cme",
    key: "GC",
    exchange: "COMEX",
    venue: "CME",
    name: "Gold",
    book: true,
    entry: book(2650, 1),
    decimals: 1,
  } as PriceRow;
  const props = { id: "r-0", row, freshness, hidden: undefined };

  it("keeps a row rebuilt with the same quote and fields, and renders one with a new quote", () => {
    expect(samePriceRow(props, { ...props, row: { ...row } })).toBe(true);
    expect(samePriceRow(props, { ...props, row: { ...row, entry: book(2650, 2) } })).toBe(false);
    expect(samePriceRow(props, { ...props, row: { ...row, contract: "GCZ6" } })).toBe(false);
    expect(samePriceRow(props, { ...props, hidden: true })).toBe(false);
  });
});

describe("shallowEqual", () => {
  it("compares keys and identities, not contents", () => {
    const entry = { bid: 1 };
    expect(shallowEqual({ a: entry, b: 1 }, { b: 1, a: entry })).toBe(true);
    expect(shallowEqual({ a: entry }, { a: { bid: 1 } })).toBe(false);
    expect(shallowEqual({ a: undefined }, { b: undefined })).toBe(false);
    expect(shallowEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
  });
});
