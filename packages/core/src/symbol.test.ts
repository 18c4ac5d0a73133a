import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INSTRUMENT_IDS } from "./instrument.ts";
import {
  isSpreadSymbol,
  parseSpreadSymbol,
  SIDES,
  SPREAD_SYMBOLS,
  SPREAD_TABLE_GROUPS,
  spreadSymbolLabel,
} from "./symbol.ts";

describe("spread symbols", () => {
  it("are the ten alert commodity types of docs/spec.md §3", () => {
    expect([...SPREAD_SYMBOLS].sort()).toEqual(
      [
        "SI_BUY",
        "SI_SELL",
        "GC_BUY",
        "GC_SELL",
        "HG_BUY",
        "HG_SELL",
        "NG_BUY",
        "NG_SELL",
        "CL_BUY",
        "CL_SELL",
      ].sort(),
    );
  });

  it("group the dashboard table Silver, Gold, Copper, Natural Gas, Crude Oil", () => {
    expect(SPREAD_TABLE_GROUPS).toEqual(["SI", "GC", "HG", "NG", "CL"]);
  });

  it("round-trip through parseSpreadSymbol", () => {
    fc.assert(
      fc.property(fc.constantFrom(...INSTRUMENT_IDS), fc.constantFrom(...SIDES), (id, side) => {
        const symbol = `${id}_${side}` as const;
        expect(isSpreadSymbol(symbol)).toBe(true);
        expect(parseSpreadSymbol(symbol)).toEqual({ id, side });
      }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...SPREAD_SYMBOLS), (symbol) => {
        const { id, side } = parseSpreadSymbol(symbol);
        expect(`${id}_${side}`).toBe(symbol);
      }),
    );
  });

  it("reject anything else", () => {
    for (const value of ["GC", "GC_buy", "gc_BUY", "GOLD_BUY", "GC_BUY_", "", "XX_SELL"]) {
      expect(isSpreadSymbol(value)).toBe(false);
    }
    fc.assert(
      fc.property(fc.string(), (value) => {
        expect(isSpreadSymbol(value)).toBe((SPREAD_SYMBOLS as readonly string[]).includes(value));
      }),
    );
  });

  it("label as metal and side", () => {
    expect(spreadSymbolLabel("GC_BUY")).toBe("Gold Buy");
    expect(spreadSymbolLabel("SI_SELL")).toBe("Silver Sell");
    expect(spreadSymbolLabel("HG_BUY")).toBe("Copper Buy");
    expect(spreadSymbolLabel("NG_SELL")).toBe("Natural Gas Sell");
    expect(spreadSymbolLabel("CL_BUY")).toBe("Crude Oil Buy");
  });
});
