import { describe, expect, it } from "vitest";
import { shippedInstrument } from "./catalogue.ts";
import { defaultCostRates, roundPaise, roundTripCosts, totalCosts } from "./costs.ts";
import { definitionCosts, definitionPerLot, definitionUnits } from "./definition-per-lot.ts";

const rates = defaultCostRates();
const specOf = shippedInstrument;

describe("definitionUnits", () => {
  it("is the first rupee leg's lot units times its lots", () => {
    expect(definitionUnits([{ name: "g", instrument: "GOLD", lots: 1 }], specOf)).toBe(100);
    expect(
      definitionUnits(
        [
          { name: "c", instrument: "GC", lots: 3 },
          { name: "gm", instrument: "GOLDM", lots: 2 },
        ],
        specOf,
      ),
    ).toBe(20);
  });

  it("is undefined without a rupee leg that trades lots", () => {
    expect(definitionUnits([{ name: "g", instrument: "GOLD" }], specOf)).toBeUndefined();
    expect(definitionUnits([{ name: "c", instrument: "GC", lots: 1 }], specOf)).toBeUndefined();
    expect(definitionUnits([{ name: "x", instrument: "NOPE", lots: 1 }], specOf)).toBeUndefined();
  });
});

describe("definitionCosts", () => {
  it("costs a GOLD lot hedged with three MGC exactly as the built-in parity's round trip", () => {
    const legs = [
      { name: "m", instrument: "GOLD", lots: 1 },
      { name: "c", instrument: "MGC", lots: 3 },
      { name: "fx", instrument: "USDINR" },
    ];
    const ours = definitionCosts(legs, { m: 76_512, c: 2650.4, fx: 84.1 }, 84.1, rates, specOf);
    const builtIn = roundTripCosts(76_512, 100, "MGC", 3, 84.1, rates);
    expect(ours).toBeDefined();
    for (const [line, amount] of Object.entries(builtIn))
      expect(ours?.[line as keyof typeof builtIn]).toBeCloseTo(amount, 9);
  });

  it("costs a calendar's two MCX legs as two round trips, and a root without a rate at GC's", () => {
    const calendar = definitionCosts(
      [
        { name: "g", instrument: "GOLD", lots: 1 },
        { name: "gn", instrument: "GOLD@next", lots: 1 },
      ],
      { g: 76_000, gn: 77_000 },
      84,
      rates,
      specOf,
    );
    expect(calendar?.brokerage).toBe(4 * rates.mcxBrokeragePerOrder);
    expect(calendar?.mcxTurnover).toBe(2 * (76_000 + 77_000) * 100);
    const brent = definitionCosts(
      [{ name: "b", instrument: "BZ", lots: 2 }],
      { b: 70 },
      84,
      rates,
      specOf,
    );
    expect(brent?.cmeUsd).toBe(4 * rates.cmePerContractPerSideUsd.GC);
    expect(brent?.cme).toBeCloseTo(4 * rates.cmePerContractPerSideUsd.GC * 84, 9);
  });

  /** A near/next calendar of one Indian instrument, `lots` on each leg, at these two prices. */
  const calendarCosts = (
    spec: { exchange: "NFO" | "CDS"; currency: "INR"; lotUnits: number },
    root: string,
    lots: number,
    [near, next]: [number, number],
  ) =>
    definitionCosts(
      [
        { name: "near", instrument: root, lots },
        { name: "next", instrument: `${root}@next`, lots },
      ],
      { near, next },
      Number.NaN,
      rates,
      () => spec,
    );

  it("charges an NFO calendar NSE's futures rates: STT on the sell side, not CTT", () => {
    // NIFTY near/next, one lot of 75 each, at 24,000 and 24,150 (worked by hand):
    // sides 1,800,000 and 1,811,250; turnover 7,222,500 both ways.
    const nifty = { exchange: "NFO", currency: "INR", lotUnits: 75 } as const;
    const costs = calendarCosts(nifty, "NIFTYFUT", 1, [24_000, 24_150]);
    expect(costs?.brokerage).toBe(80);
    expect(costs?.stt).toBeCloseTo(3_611_250 * 0.0002, 9); // 722.25
    expect(costs?.ctt).toBe(0);
    expect(costs?.exchange).toBeCloseTo((7_222_500 * 173) / 1e7, 9); // 124.95
    expect(costs?.sebi).toBeCloseTo((7_222_500 * 10) / 1e7, 9); // 7.22
    expect(costs?.stampDuty).toBeCloseTo(3_611_250 * 0.00002, 9); // 72.23
    expect(costs?.mcxTurnover).toBe(0);
    expect(roundPaise(totalCosts(costs ?? ({} as never)))).toBe(
      roundPaise(80 + 722.25 + 124.950_425 + 7.2225 + 72.225 + (80 + 124.950_425 + 7.2225) * 0.18),
    );
  });

  it("charges a CDS calendar NSE's currency rates: no STT, $1,000 a lot", () => {
    const usdinr = { exchange: "CDS", currency: "INR", lotUnits: 1000 } as const;
    const costs = calendarCosts(usdinr, "USDINRFUT", 2, [84, 84.25]);
    // Sides 168,000 and 168,500: turnover 673,000 both ways.
    expect(costs?.stt).toBeUndefined();
    expect(costs?.ctt).toBe(0);
    expect(costs?.exchange).toBeCloseTo((673_000 * 35) / 1e7, 9);
    expect(costs?.stampDuty).toBeCloseTo(336_500 * 0.000001, 9);
    expect(costs?.brokerage).toBe(80);
  });

  it("is undefined when a traded leg has no price, and ignores legs without lots", () => {
    const legs = [
      { name: "g", instrument: "GOLD", lots: 1 },
      { name: "s", instrument: "SILVER" },
    ];
    expect(definitionCosts(legs, {}, 84, rates, specOf)).toBeUndefined();
    expect(definitionCosts(legs, { g: 1000 }, 84, rates, specOf)?.mcxTurnover).toBe(200_000);
  });
});

describe("definitionPerLot", () => {
  it("values a GOLD calendar on a 1 kg lot and nets its costs, to paise", () => {
    const legs = [
      { name: "g", instrument: "GOLD", lots: 1 },
      { name: "gn", instrument: "GOLD@next", lots: 1 },
    ];
    const value = { spread: -812.5, legs: { g: { price: 76_000 }, gn: { price: 76_812.5 } } };
    const lot = definitionPerLot({ legs }, value, 84, rates, specOf);
    const costs = definitionCosts(legs, { g: 76_000, gn: 76_812.5 }, 84, rates, specOf);
    expect(lot?.units).toBe(100);
    expect(lot?.grossInr).toBe(-81_250);
    expect(lot?.costsInr).toBe(roundPaise(totalCosts(costs as never)));
    expect(lot?.netInr).toBe(roundPaise(-81_250 - (lot?.costsInr ?? 0)));
  });

  it("is undefined for a ratio without lots or a non-finite spread", () => {
    const legs = [
      { name: "g", instrument: "GOLD" },
      { name: "s", instrument: "SILVER" },
    ];
    const value = { spread: 0.8, legs: { g: { price: 1 }, s: { price: 1 } } };
    expect(definitionPerLot({ legs }, value, 84, rates, specOf)).toBeUndefined();
    const withLots = [{ name: "g", instrument: "GOLD", lots: 1 }];
    const nan = { spread: Number.NaN, legs: { g: { price: 1 } } };
    expect(definitionPerLot({ legs: withLots }, nan, 84, rates, specOf)).toBeUndefined();
  });
});
