import { describe, expect, it } from "vitest";
import { defaultCostRates } from "./costs.ts";
import { perLot, withPerLot } from "./per-lot.ts";

const entry = {
  symbol: "GC_BUY" as const,
  spread: 65.950510587292,
  cme: 2000,
  mcx: 57320,
  parity: 57254.0494894127,
  usdinr: 84,
};

describe("withPerLot", () => {
  it("serialises as the entry's fields plus its standard-lot perLot", () => {
    const json = JSON.parse(JSON.stringify(withPerLot(entry)));
    expect(json).toEqual({ ...entry, perLot: perLot("GC_BUY", entry, 84) });
    expect(json.perLot.netInr).toBe(5048.32);
  });

  it("prices at the rates given, and leaves perLot out when it cannot be computed", () => {
    const free = { ...defaultCostRates(), mcxBrokeragePerOrder: 0 };
    expect(withPerLot(entry, free)?.perLot?.breakdown.brokerage).toBe(0);
    const broken = JSON.parse(JSON.stringify(withPerLot({ ...entry, usdinr: Number.NaN })));
    expect(broken).not.toHaveProperty("perLot");
    expect(withPerLot(undefined)).toBeUndefined();
  });
});
