import { describe, expect, it } from "vitest";
import { shippedInstrument } from "./catalogue.ts";
import { configuredMargin, defaultMarginRates } from "./margin.ts";

const rates = defaultMarginRates();

describe("configuredMargin", () => {
  it("adds the MCX leg's share of its value and the US leg's initial margin in rupees", () => {
    const margin = configuredMargin(
      [
        { name: "m", instrument: "GOLD", lots: 1, price: 76_000 },
        { name: "c", instrument: "MGC", lots: 3, price: 2650 },
        { name: "fx", instrument: "USDINR", price: 84 },
      ],
      84,
      rates,
      shippedInstrument,
    );
    expect(margin?.lines).toEqual([
      { leg: "m", inr: 760_000 },
      { leg: "c", inr: 3 * 1_650 * 84 },
    ]);
    expect(margin?.inr).toBe(760_000 + 3 * 1_650 * 84);
  });

  it("takes a root's own share, and both months of a calendar without a benefit", () => {
    const margin = configuredMargin(
      [
        { name: "c", instrument: "CRUDEOIL", lots: 1, price: 6000 },
        { name: "cn", instrument: "CRUDEOIL@next", lots: 1, price: 6050 },
      ],
      84,
      rates,
      shippedInstrument,
    );
    expect(margin?.inr).toBe(0.3 * 600_000 + 0.3 * 605_000);
  });

  it("is undefined when a traded leg has no price or USD legs lack USDINR", () => {
    const gold = { name: "g", instrument: "GOLD", lots: 1, price: Number.NaN };
    expect(configuredMargin([gold], 84, rates, shippedInstrument)).toBeUndefined();
    const gc = { name: "c", instrument: "GC", lots: 1, price: 2650 };
    expect(configuredMargin([gc], Number.NaN, rates, shippedInstrument)).toBeUndefined();
  });
});
