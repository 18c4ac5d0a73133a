import { describe, expect, it } from "vitest";
import { alignCloses, chartSymbolAt, chartSymbolLegs, LEG_CARRY_MS } from "./contract-closes.ts";
import { defaultDuties, instrument } from "./instrument.ts";
import { parity } from "./spread.ts";

const M = 60_000;
const at = (minute: number, close: number) => ({ timestamp: minute * M, close });

describe("alignCloses", () => {
  it("pairs the legs minute by minute, carrying a leg's last close at most five minutes", () => {
    // MCX closes for the night after minute 3; CME goes on.
    const mcx = [at(0, 100), at(1, 101), at(3, 103)];
    const cme = [at(0, 10), at(1, 11), at(2, 12), at(3, 13), at(4, 14), at(8, 18), at(9, 19)];
    expect(alignCloses([mcx, cme])).toEqual([
      { timestamp: 0, closes: [100, 10] },
      { timestamp: M, closes: [101, 11] },
      // MCX's minute 1 stands in for its missing minute 2.
      { timestamp: 2 * M, closes: [101, 12] },
      { timestamp: 3 * M, closes: [103, 13] },
      { timestamp: 4 * M, closes: [103, 14] },
      // Five minutes after MCX's last close, and no further: minute 9 is no spread minute.
      { timestamp: 8 * M, closes: [103, 18] },
    ]);
    expect(LEG_CARRY_MS).toBe(5 * M);
  });

  it("has no minute before every leg has closed once, and none for a leg with no closes", () => {
    expect(alignCloses([[at(7, 1)], [at(0, 2), at(1, 3)]])).toEqual([]);
    expect(alignCloses([[at(0, 1)], []])).toEqual([]);
    expect(alignCloses([])).toEqual([]);
    expect(alignCloses([[at(0, 1), at(1, 2)]])).toEqual([
      { timestamp: 0, closes: [1] },
      { timestamp: M, closes: [2] },
    ]);
  });

  it("keeps each leg's own series: a contract's closes are never mixed with another's", () => {
    const dec = [at(0, 76000), at(1, 76010)];
    const feb = [at(0, 77000), at(1, 77020)];
    const gc = [at(0, 2650), at(1, 2651)];
    expect(alignCloses([feb, gc]).map((m) => m.closes[0])).toEqual([77000, 77020]);
    expect(alignCloses([dec, gc]).map((m) => m.closes[0])).toEqual([76000, 76010]);
  });
});

describe("chartSymbolLegs / chartSymbolAt", () => {
  it("names each chart symbol's legs and values it at their closes with the dashboard's formula", () => {
    expect(chartSymbolLegs("GC_BUY")).toEqual([
      { source: "cme", key: "GC" },
      { source: "mcx", key: "GOLD" },
      { source: "fx", key: "USDINR" },
    ]);
    expect(chartSymbolLegs("NIFTY").map((l) => l.key)).toEqual(["NIFTY50", "GIFTNIFTY"]);
    const duties = defaultDuties();
    const legs = chartSymbolLegs("GC_BUY");
    const value = chartSymbolAt("GC_BUY", legs, [2650, 77000, 84], duties);
    expect(value).toBeCloseTo(77000 - parity(2650, instrument("GC"), 84, duties.GC), 9);
    expect(chartSymbolAt("GC_SELL", chartSymbolLegs("GC_SELL"), [2650, 77000, 84], duties)).toBe(
      value,
    );
  });
});
