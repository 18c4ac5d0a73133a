import { describe, expect, it } from "vitest";
import { isBookSource, isKnownQuoteKey, QUOTE_SOURCES, type QuoteSource } from "./quote.ts";

describe("quote keys", () => {
  it("lists the five sources", () => {
    expect(QUOTE_SOURCES).toEqual(["cme", "mcx", "spot", "index", "fx"]);
  });

  it("knows the keys of docs/design.md §4 per source", () => {
    for (const key of ["GC", "SI", "HG", "NG", "CL"])
      expect(isKnownQuoteKey("cme", key)).toBe(true);
    for (const key of ["GOLD", "SILVER", "COPPER", "NATURALGAS", "CRUDEOIL"]) {
      expect(isKnownQuoteKey("mcx", key)).toBe(true);
    }
    expect(isKnownQuoteKey("spot", "XAUUSD")).toBe(true);
    expect(isKnownQuoteKey("spot", "XAGUSD")).toBe(true);
    expect(isKnownQuoteKey("index", "NIFTY50")).toBe(true);
    expect(isKnownQuoteKey("index", "GIFTNIFTY")).toBe(true);
    expect(isKnownQuoteKey("fx", "USDINR")).toBe(true);
  });

  it("rejects a key under the wrong source", () => {
    expect(isKnownQuoteKey("cme", "GOLD")).toBe(false);
    expect(isKnownQuoteKey("mcx", "GC")).toBe(false);
    expect(isKnownQuoteKey("fx", "EURINR")).toBe(false);
    expect(isKnownQuoteKey("spot", "xauusd")).toBe(false);
  });

  it("returns false rather than throwing for an unchecked source string", () => {
    expect(isKnownQuoteKey("nyse" as QuoteSource, "GC")).toBe(false);
    expect(isKnownQuoteKey("constructor" as QuoteSource, "name")).toBe(false);
  });

  it("marks cme and mcx as bid/ask books", () => {
    expect(QUOTE_SOURCES.filter(isBookSource)).toEqual(["cme", "mcx"]);
  });
});
