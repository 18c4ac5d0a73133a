import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CME_CONTRACTS, contractUnits, hedgeFor, MCX_LOTS, mcxLot } from "./lot.ts";

describe("contractUnits", () => {
  it("converts CME sizes into MCX quote units with docs/design.md §2's factors", () => {
    const units = Object.fromEntries(CME_CONTRACTS.map((c) => [c.key, contractUnits(c)]));
    // GC 100 oz × 31.1034768 g = 3,110.34768 g = 311.034768 units of 10 g; MGC a tenth.
    expect(units.GC).toBeCloseTo(311.034768, 9);
    expect(units.MGC).toBeCloseTo(31.1034768, 9);
    // SI 5,000 oz × 31.1034768 g = 155,517.384 g = 155.517384 kg; SIL 1,000 oz = 31.1034768 kg.
    expect(units.SI).toBeCloseTo(155.517384, 9);
    expect(units.SIL).toBeCloseTo(31.1034768, 9);
    // HG 25,000 lb / 2.20462262185 lb per kg = 11,339.80925 kg; MHG a tenth.
    expect(units.HG).toBeCloseTo(11_339.80925, 4);
    expect(units.MHG).toBeCloseTo(1_133.980925, 5);
    // NG and CL trade in the MCX unit already.
    expect([units.NG, units.QG, units.CL, units.MCL]).toEqual([10_000, 2500, 1000, 100]);
  });
});

describe("hedgeFor", () => {
  it("GOLD 1 kg: 3 MGC (93.31 units of 10 g), 6.69 units left, better than 0 GC", () => {
    // 100 / 31.1034768 = 3.215 MGC → 3; 100 − 3 × 31.1034768 = 100 − 93.3104304 = 6.6895696.
    const hedge = hedgeFor(mcxLot("GOLD"));
    expect(hedge).toMatchObject({ contract: "MGC", contracts: 3 });
    expect(hedge.ratio).toBeCloseTo(3.2150747, 6);
    expect(hedge.unhedgedUnits).toBeCloseTo(6.6895696, 9);
  });

  it("SILVER 30 kg: 1 SIL over-hedges by 1.10 kg, better than 0 SI leaving 30", () => {
    // 30 / 31.1034768 = 0.9645 → 1; 30 − 31.1034768 = −1.1034768.
    const hedge = hedgeFor(mcxLot("SILVER"));
    expect(hedge).toMatchObject({ contract: "SIL", contracts: 1 });
    expect(hedge.unhedgedUnits).toBeCloseTo(-1.1034768, 9);
  });

  it("COPPER 2,500 kg: 2 MHG, 232.04 kg left", () => {
    // 2,500 / 1,133.980925 = 2.2046 → 2; 2,500 − 2 × 1,133.980925 = 232.03815.
    const hedge = hedgeFor(mcxLot("COPPER"));
    expect(hedge).toMatchObject({ contract: "MHG", contracts: 2 });
    expect(hedge.unhedgedUnits).toBeCloseTo(232.03815, 4);
  });

  it("CRUDEOIL 100 bbl: exactly 1 MCL", () => {
    expect(hedgeFor(mcxLot("CRUDEOIL"))).toEqual({
      contract: "MCL",
      contracts: 1,
      ratio: 1,
      unhedgedUnits: 0,
    });
  });

  it("an exact half contract is left unhedged, and a tie goes to the smaller contract", () => {
    // NATURALGAS 1,250 / QG 2,500 = 0.5 → 0 (half rounds down); NG also 0: both leave 1,250.
    expect(hedgeFor(mcxLot("NATURALGAS"))).toEqual({
      contract: "QG",
      contracts: 0,
      ratio: 0.5,
      unhedgedUnits: 1250,
    });
    // Minis are below half of the smallest contract: nothing to hedge with, all left open.
    expect(hedgeFor(mcxLot("GOLDM"))).toMatchObject({
      contract: "MGC",
      contracts: 0,
      unhedgedUnits: 10,
    });
    expect(hedgeFor(mcxLot("SILVERM"))).toMatchObject({
      contract: "SIL",
      contracts: 0,
      unhedgedUnits: 5,
    });
    expect(hedgeFor(mcxLot("NATGASMINI"))).toMatchObject({
      contract: "QG",
      contracts: 0,
      unhedgedUnits: 250,
    });
    expect(hedgeFor(mcxLot("CRUDEOILM"))).toMatchObject({
      contract: "MCL",
      contracts: 0,
      unhedgedUnits: 10,
    });
  });

  it("never leaves more than half a contract, and no other contract leaves less", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MCX_LOTS),
        fc.double({ min: 0.01, max: 1e6, noNaN: true }),
        (lot, units) => {
          const scaled = { ...lot, units };
          const hedge = hedgeFor(scaled);
          const chosen = CME_CONTRACTS.find((c) => c.key === hedge.contract);
          if (!chosen) return false;
          const per = contractUnits(chosen);
          expect(Math.abs(hedge.unhedgedUnits)).toBeLessThanOrEqual(per / 2 + 1e-9 * per);
          for (const other of CME_CONTRACTS.filter((c) => c.instrument === lot.instrument)) {
            const o = contractUnits(other);
            const best = Math.min(
              ...[Math.floor(units / o), Math.ceil(units / o)].map((n) => Math.abs(units - n * o)),
            );
            expect(Math.abs(hedge.unhedgedUnits)).toBeLessThanOrEqual(best + 1e-9 * units);
          }
          return true;
        },
      ),
    );
  });
});
