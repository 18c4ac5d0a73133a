import { describe, expect, it } from "vitest";
import {
  BUILT_IN_INSTRUMENTS,
  groupOfExchange,
  isInstrumentKey,
  parseInstrumentKey,
  SHIPPED_INSTRUMENTS,
  shippedInstrument,
} from "./catalogue.ts";
import { contractProduct } from "./contract-calendar.ts";
import { MCX_LOTS } from "./lot.ts";
import { QUOTE_KEYS } from "./quote.ts";

describe("the shipped catalogue", () => {
  it("holds the fifteen built-in keys under their old groups", () => {
    const byGroup = Object.fromEntries(
      Object.entries(QUOTE_KEYS).map(([group, keys]) => [group, [...keys].sort()]),
    );
    const grouped: Record<string, string[]> = {};
    for (const spec of BUILT_IN_INSTRUMENTS) {
      const group = groupOfExchange(spec.exchange);
      grouped[group] = [...(grouped[group] ?? []), spec.key].sort();
    }
    expect(grouped).toEqual(byGroup);
  });

  it("gives each MCX future the lot of its contract specification", () => {
    for (const lot of MCX_LOTS) expect(shippedInstrument(lot.key)?.lotUnits).toBe(lot.units);
    // The September 2025 contract onwards trades 250 kg (it was 1,500 kg before).
    expect(shippedInstrument("NICKEL")?.lotUnits).toBe(250);
  });

  it("has the next and far month of every future, each with a listing calendar", () => {
    const futures = SHIPPED_INSTRUMENTS.filter((s) => s.month === "near");
    expect(futures.map((s) => s.key)).toEqual(
      expect.arrayContaining(["GOLDM", "SILVERMIC", "ZINC", "NICKEL", "MGC", "MCL", "BZ", "QG"]),
    );
    for (const near of futures) {
      expect(shippedInstrument(`${near.key}@next`)?.month).toBe("next");
      expect(shippedInstrument(`${near.key}@far`)?.month).toBe("far");
      expect(contractProduct(near.key), near.key).toBeDefined();
    }
    expect(new Set(SHIPPED_INSTRUMENTS.map((s) => s.key)).size).toBe(SHIPPED_INSTRUMENTS.length);
  });

  it("names a later month with its exchange, so MCX and COMEX gold differ", () => {
    expect(shippedInstrument("GOLD@next")?.name).toBe("Gold MCX (next month)");
    expect(shippedInstrument("GC@next")?.name).toBe("Gold COMEX (next month)");
    const later = SHIPPED_INSTRUMENTS.filter((s) => s.month === "next" || s.month === "far");
    expect(new Set(later.map((s) => s.name)).size).toBe(later.length);
  });
});

describe("keys", () => {
  it("reads a month from the key", () => {
    expect(parseInstrumentKey("GOLD@next")).toEqual({ root: "GOLD", month: "next" });
    expect(parseInstrumentKey("GOLD")).toEqual({ root: "GOLD", month: "near" });
  });

  it.each(["GOLD", "GOLD@far", "BZ", "NIFTY50", "ES.C"])("accepts %s", (key) =>
    expect(isInstrumentKey(key)).toBe(true),
  );

  it.each(["gold", "GOLD@near", "GOLD@", "", "A B", "__proto__", "@next"])("refuses %s", (key) =>
    expect(isInstrumentKey(key)).toBe(false),
  );
});
