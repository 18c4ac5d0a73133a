import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyQuote, emptyPrices, removePrice } from "./prices.ts";
import type { Quote, QuoteSource } from "./quote.ts";

describe("emptyPrices", () => {
  it("has every group empty and no timestamp", () => {
    expect(emptyPrices()).toEqual({
      cme: {},
      mcx: {},
      spot: {},
      zerodha: {},
      fx: {},
      timestamp: null,
    });
  });

  it("returns a new object each time", () => {
    const a = emptyPrices();
    applyQuote(a, { source: "fx", key: "USDINR", price: 84, ts: 1 });
    expect(emptyPrices().fx).toEqual({});
  });
});

describe("applyQuote", () => {
  it("stores a full book quote", () => {
    const prices = emptyPrices();
    expect(applyQuote(prices, { source: "cme", key: "GC", bid: 2650, ask: 2650.4, ts: 1000 })).toBe(
      true,
    );
    expect(prices.cme.GC).toEqual({ bid: 2650, ask: 2650.4, timestamp: 1000 });
    expect(prices.timestamp).toBe(1000);
  });

  it("keeps the other side on a partial book update, with the newer timestamp", () => {
    const prices = emptyPrices();
    applyQuote(prices, { source: "mcx", key: "GOLD", bid: 76400, ask: 76420, ts: 1000 });
    applyQuote(prices, { source: "mcx", key: "GOLD", bid: 76405, ts: 2000 });
    expect(prices.mcx.GOLD).toEqual({ bid: 76405, ask: 76420, timestamp: 2000 });
    applyQuote(prices, { source: "mcx", key: "GOLD", ask: 76430, ts: 3000 });
    expect(prices.mcx.GOLD).toEqual({ bid: 76405, ask: 76430, timestamp: 3000 });
  });

  it("treats a non-finite side as absent", () => {
    const prices = emptyPrices();
    applyQuote(prices, { source: "cme", key: "SI", bid: 31.2, ask: 31.23, ts: 1000 });
    applyQuote(prices, { source: "cme", key: "SI", bid: Number.NaN, ask: 31.25, ts: 2000 });
    expect(prices.cme.SI).toEqual({ bid: 31.2, ask: 31.25, timestamp: 2000 });
  });

  it("clears a side the quote says is empty (null) instead of keeping its old price", () => {
    const prices = emptyPrices();
    applyQuote(prices, { source: "mcx", key: "CRUDEOIL", bid: 72130, ask: 72140, ts: 1000 });
    // The offer side emptied; the bid moved up. Keeping the old ask would cross the book
    // (72155 / 72140) under a fresh timestamp.
    expect(
      applyQuote(prices, { source: "mcx", key: "CRUDEOIL", bid: 72155, ask: null, ts: 2000 }),
    ).toBe(true);
    expect(prices.mcx.CRUDEOIL).toEqual({ bid: 72155, timestamp: 2000 });
    expect(prices.mcx.CRUDEOIL && "ask" in prices.mcx.CRUDEOIL).toBe(false);
  });

  it("takes a quote whose both sides are empty: the book is empty now", () => {
    const prices = emptyPrices();
    applyQuote(prices, { source: "mcx", key: "GOLD", bid: 76400, ask: 76420, ts: 1000 });
    expect(applyQuote(prices, { source: "mcx", key: "GOLD", bid: null, ask: null, ts: 2000 })).toBe(
      true,
    );
    expect(prices.mcx.GOLD).toEqual({ timestamp: 2000 });
  });

  it("keeps negative prices: a price is a price whatever its sign", () => {
    const prices = emptyPrices();
    applyQuote(prices, { source: "cme", key: "CL", bid: -40.32, ask: -37.63, ts: 1000 });
    applyQuote(prices, { source: "mcx", key: "CRUDEOIL", bid: -2884, ts: 1000 });
    expect(prices.cme.CL).toEqual({ bid: -40.32, ask: -37.63, timestamp: 1000 });
    expect(prices.mcx.CRUDEOIL).toEqual({ bid: -2884, timestamp: 1000 });
  });

  it("always shows each side as the last quote that spoke of it left it", () => {
    // A side is a price (any sign), null (empty now) or left out (undefined: keep the last).
    const side = fc.option(
      fc.oneof(fc.constant(null), fc.double({ min: -1e6, max: 1e6, noNaN: true })),
      { nil: undefined },
    );
    const quotes = fc.array(fc.record({ bid: side, ask: side }), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(quotes, (sides) => {
        const prices = emptyPrices();
        const model: { bid?: number | null; ask?: number | null } = {};
        sides.forEach(({ bid, ask }, i) => {
          applyQuote(prices, { source: "mcx", key: "GOLD", bid, ask, ts: i });
          if (bid !== undefined) model.bid = bid;
          if (ask !== undefined) model.ask = ask;
        });
        const entry = prices.mcx.GOLD;
        expect(entry?.bid).toBe(model.bid ?? undefined);
        expect(entry?.ask).toBe(model.ask ?? undefined);
      }),
    );
  });

  it("starts a one-sided book without inventing the other side", () => {
    const prices = emptyPrices();
    applyQuote(prices, { source: "cme", key: "HG", ask: 4.152, ts: 1000 });
    expect(prices.cme.HG).toEqual({ ask: 4.152, timestamp: 1000 });
    expect(prices.cme.HG && "bid" in prices.cme.HG).toBe(false);
  });

  it("stores single-price sources in their groups", () => {
    const prices = emptyPrices();
    applyQuote(prices, { source: "spot", key: "XAUUSD", price: 2640.55, ts: 1 });
    applyQuote(prices, { source: "spot", key: "XAGUSD", price: 31.3, ts: 2 });
    applyQuote(prices, { source: "index", key: "NIFTY50", price: 24050.25, ts: 3 });
    applyQuote(prices, { source: "index", key: "GIFTNIFTY", price: 24150.5, ts: 4 });
    applyQuote(prices, { source: "fx", key: "USDINR", price: 84, ts: 5 });
    expect(prices.spot).toEqual({
      XAUUSD: { price: 2640.55, timestamp: 1 },
      XAGUSD: { price: 31.3, timestamp: 2 },
    });
    expect(prices.zerodha).toEqual({
      nifty50: { price: 24050.25, timestamp: 3 },
      giftnifty: { price: 24150.5, timestamp: 4 },
    });
    expect(prices.fx).toEqual({ USDINR: { price: 84, timestamp: 5 } });
    expect(prices.timestamp).toBe(5);
  });

  it("carries a quote's delayed and last-only marks into its entry, and drops them when the next quote has none", () => {
    const prices = emptyPrices();
    applyQuote(prices, {
      source: "cme",
      key: "GC",
      bid: 2650,
      ask: 2650,
      ts: 1,
      delayed: true,
      lastOnly: true,
    });
    applyQuote(prices, { source: "spot", key: "XAUUSD", price: 2640, ts: 2, delayed: true });
    expect(prices.cme.GC).toEqual({
      bid: 2650,
      ask: 2650,
      timestamp: 1,
      delayed: true,
      lastOnly: true,
    });
    expect(prices.spot.XAUUSD).toEqual({ price: 2640, timestamp: 2, delayed: true });
    applyQuote(prices, { source: "cme", key: "GC", bid: 2651, ts: 3, delayed: false });
    expect(prices.cme.GC).toEqual({ bid: 2651, ask: 2650, timestamp: 3 });
    expect(Object.keys(prices.cme.GC ?? {})).not.toContain("delayed");
  });

  const rejected: [string, Quote][] = [
    ["a lower-case key", { source: "cme", key: "gold", bid: 1, ask: 2, ts: 1 }],
    ["an unknown month", { source: "mcx", key: "GOLD@prev", bid: 1, ask: 2, ts: 1 }],
    ["an empty key", { source: "spot", key: "", price: 1, ts: 1 }],
    ["a key with a space", { source: "index", key: "NIFTY 50", price: 1, ts: 1 }],
    ["a key too long", { source: "fx", key: "E".repeat(33), price: 1, ts: 1 }],
    ["an unknown source", { source: "nyse" as QuoteSource, key: "GC", price: 1, ts: 1 }],
    ["a prototype key", { source: "cme", key: "__proto__", bid: 1, ask: 2, ts: 1 }],
    ["a book quote with no side", { source: "cme", key: "GC", price: 2650, ts: 1 }],
    ["a book quote with only NaN", { source: "mcx", key: "GOLD", bid: Number.NaN, ts: 1 }],
    ["a price quote with no price", { source: "fx", key: "USDINR", bid: 84, ts: 1 }],
    [
      "an infinite price",
      { source: "spot", key: "XAUUSD", price: Number.POSITIVE_INFINITY, ts: 1 },
    ],
    ["a NaN timestamp", { source: "fx", key: "USDINR", price: 84, ts: Number.NaN }],
  ];

  it("lists another catalogue key under its group by its key, with the contract it names", () => {
    const prices = emptyPrices();
    const zinc = { source: "mcx", key: "ZINC", bid: 270.5, ask: 270.6, ts: 5 } as const;
    expect(applyQuote(prices, { ...zinc, contract: "ZINC26NOVFUT", expiry: "2026-11-30" })).toBe(
      true,
    );
    expect(applyQuote(prices, { source: "cme", key: "GC@next", bid: 4100, ts: 6 })).toBe(true);
    expect(applyQuote(prices, { source: "index", key: "BANKNIFTY", price: 59000, ts: 7 })).toBe(
      true,
    );
    expect(prices.mcx.ZINC).toEqual({ bid: 270.5, ask: 270.6, timestamp: 5 });
    expect(prices.cme["GC@next"]).toEqual({ bid: 4100, timestamp: 6 });
    expect(prices.zerodha.BANKNIFTY).toEqual({ price: 59000, timestamp: 7 });
    expect(prices.contracts).toEqual({
      ZINC: { contract: "ZINC26NOVFUT", expiry: "2026-11-30" },
    });
    expect(removePrice(prices, "mcx", "ZINC")).toBe(true);
    expect(prices.mcx.ZINC).toBeUndefined();
    expect(prices.contracts?.ZINC).toBeUndefined();
  });

  it.each(rejected)("rejects %s and changes nothing", (_, quote) => {
    const prices = emptyPrices();
    applyQuote(prices, { source: "fx", key: "USDINR", price: 83, ts: 10 });
    const before = JSON.parse(JSON.stringify(prices));
    expect(applyQuote(prices, quote)).toBe(false);
    expect(prices).toEqual(before);
  });

  it("keeps the newest timestamp when quotes arrive out of order", () => {
    const prices = emptyPrices();
    applyQuote(prices, { source: "cme", key: "GC", bid: 2650, ask: 2650.4, ts: 5000 });
    applyQuote(prices, { source: "cme", key: "CL", bid: 70.1, ask: 70.12, ts: 3000 });
    expect(prices.timestamp).toBe(5000);
    expect(prices.cme.CL?.timestamp).toBe(3000);
    applyQuote(prices, { source: "fx", key: "USDINR", price: 84, ts: 7000 });
    expect(prices.timestamp).toBe(7000);
  });
});
