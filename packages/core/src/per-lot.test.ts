import { describe, expect, it } from "vitest";
import { defaultCostRates, roundPaise } from "./costs.ts";
import { perLot } from "./per-lot.ts";

// Every example at USDINR 84.12 with defaultCostRates(): brokerage ₹20 an order (2 orders),
// exchange ₹210 and SEBI ₹10 per crore (₹1,00,00,000) of round-trip turnover, CTT 0.01 % of the
// sell side, stamp 0.002 % of the buy side, GST 18 % of brokerage + exchange + SEBI, CME fees
// per contract per side ×2 sides × USDINR.
const USDINR = 84.12;

describe("perLot", () => {
  it("GOLD 1 kg at ₹72,150 vs GC 2,350.40, hedged with 3 MGC", () => {
    // parity = 2,350.40 × 10 / 31.1034768 × 84.12 × 1.06 = 67,381.0803; spread = 72,150 − that.
    const spread = 72_150 - (2350.4 * 10 * 84.12 * 1.06) / 31.1034768; // 4,768.9197
    const result = perLot("GC_BUY", { spread, mcx: 72_150 }, USDINR);
    // side turnover 72,150 × 100 = 72,15,000; round trip 1,44,30,000 (1.443 crore)
    // brokerage 2 × 20 = 40.00
    // exchange 1.443 × 210 = 303.03; SEBI 1.443 × 10 = 14.43
    // CTT 72,15,000 × 0.0001 = 721.50; stamp 72,15,000 × 0.00002 = 144.30
    // GST 0.18 × (40 + 303.03 + 14.43) = 0.18 × 357.46 = 64.3428
    // CME 3 MGC × 2 sides × $1.02 = $6.12 × 84.12 = 514.8144
    // total 40 + 303.03 + 14.43 + 721.50 + 144.30 + 64.3428 + 514.8144 = 1,802.4172 → 1,802.42
    // gross 4,768.9197 × 100 = 4,76,891.97; net 4,76,891.97 − 1,802.42 = 4,75,089.55
    expect(result).toMatchObject({
      contract: "GOLD",
      units: 100,
      grossInr: 476_891.97,
      costsInr: 1802.42,
      netInr: 475_089.55,
      hedge: { contract: "MGC", contracts: 3 },
      breakdown: {
        mcxTurnover: 14_430_000,
        brokerage: 40,
        exchange: 303.03,
        sebi: 14.43,
        ctt: 721.5,
        stampDuty: 144.3,
        gst: 64.34,
        cme: 514.81,
        cmeUsd: 6.12,
      },
    });
    // 100 − 3 × 31.1034768 = 6.6895696 → 6.6896 (4 decimals)
    expect(result?.hedge.unhedgedUnits).toBe(6.6896);
  });

  it("GOLDM 100 g, a negative SELL spread: no CME contract fits, so no CME fees", () => {
    const result = perLot("GC_SELL", { spread: -120.5, mcx: 72_150 }, USDINR, { GC: "GOLDM" });
    // side 72,150 × 10 = 7,21,500; round trip 14,43,000 (0.1443 crore)
    // exchange 0.1443 × 210 = 30.303; SEBI 1.443; CTT 72.15; stamp 14.43; brokerage 40
    // GST 0.18 × (40 + 30.303 + 1.443) = 0.18 × 71.746 = 12.91428
    // total 40 + 30.303 + 1.443 + 72.15 + 14.43 + 12.91428 = 171.24028 → 171.24
    // gross −120.50 × 10 = −1,205.00; net −1,205.00 − 171.24 = −1,376.24
    expect(result).toMatchObject({
      contract: "GOLDM",
      units: 10,
      grossInr: -1205,
      costsInr: 171.24,
      netInr: -1376.24,
      hedge: { contract: "MGC", contracts: 0, unhedgedUnits: 10 },
    });
    expect(result?.breakdown.cme).toBe(0);
  });

  it("SILVER 30 kg at ₹88,500 / kg, hedged with 1 SIL", () => {
    const result = perLot("SI_BUY", { spread: 1250.75, mcx: 88_500 }, USDINR);
    // side 88,500 × 30 = 26,55,000; round trip 53,10,000 (0.531 crore)
    // exchange 0.531 × 210 = 111.51; SEBI 5.31; CTT 265.50; stamp 53.10; brokerage 40
    // GST 0.18 × (40 + 111.51 + 5.31) = 0.18 × 156.82 = 28.2276
    // CME 1 SIL × 2 × $1.27 = $2.54 × 84.12 = 213.6648
    // total 40 + 111.51 + 5.31 + 265.50 + 53.10 + 28.2276 + 213.6648 = 717.3124 → 717.31
    // gross 1,250.75 × 30 = 37,522.50; net 37,522.50 − 717.31 = 36,805.19
    expect(result).toMatchObject({
      contract: "SILVER",
      units: 30,
      grossInr: 37_522.5,
      costsInr: 717.31,
      netInr: 36_805.19,
      hedge: { contract: "SIL", contracts: 1 },
    });
    // 30 − 31.1034768 = −1.1034768 → −1.1035
    expect(result?.hedge.unhedgedUnits).toBe(-1.1035);
  });

  it("CRUDEOIL 100 bbl at ₹6,150, hedged exactly with 1 MCL", () => {
    const result = perLot("CL_BUY", { spread: 42.3, mcx: 6150 }, USDINR);
    // side 6,150 × 100 = 6,15,000; round trip 12,30,000 (0.123 crore)
    // exchange 0.123 × 210 = 25.83; SEBI 1.23; CTT 61.50; stamp 12.30; brokerage 40
    // GST 0.18 × (40 + 25.83 + 1.23) = 0.18 × 67.06 = 12.0708
    // CME 1 MCL × 2 × $0.77 = $1.54 × 84.12 = 129.5448
    // total 40 + 25.83 + 1.23 + 61.50 + 12.30 + 12.0708 + 129.5448 = 282.4756 → 282.48
    // gross 42.30 × 100 = 4,230.00; net 4,230.00 − 282.48 = 3,947.52
    expect(result).toEqual({
      contract: "CRUDEOIL",
      units: 100,
      grossInr: 4230,
      costsInr: 282.48,
      netInr: 3947.52,
      hedge: { contract: "MCL", contracts: 1, unhedgedUnits: 0 },
      breakdown: {
        mcxTurnover: 1_230_000,
        brokerage: 40,
        exchange: 25.83,
        sebi: 1.23,
        ctt: 61.5,
        stampDuty: 12.3,
        gst: 12.07,
        cme: 129.54,
        cmeUsd: 1.54,
      },
    });
  });

  it("costs a negative MCX price by its size (crude, April 2020)", () => {
    // side |−100 × 100| = 10,000; round trip 20,000; exchange 20,000 × 210 / 1e7 = 0.42; SEBI 0.02
    // CTT 1.00; stamp 0.20; brokerage 40; GST 0.18 × 40.44 = 7.2792; CME 1 MCL 129.5448
    // total 40 + 0.42 + 0.02 + 1.00 + 0.20 + 7.2792 + 129.5448 = 178.464 → 178.46
    expect(perLot("CL_BUY", { spread: 1, mcx: -100 }, USDINR)?.costsInr).toBe(178.46);
  });

  it("takes every rate as a parameter", () => {
    // CRUDEOIL as above with zero-brokerage, GST-free rates and a $5 MCL side:
    // 25.83 + 1.23 + 61.50 + 12.30 = 100.86; CME 2 × 5 × 84.12 = 841.20; total 942.06
    const rates = { ...defaultCostRates(), mcxBrokeragePerOrder: 0, gstRate: 0 };
    rates.cmePerContractPerSideUsd = { ...rates.cmePerContractPerSideUsd, MCL: 5 };
    expect(perLot("CL_SELL", { spread: 42.3, mcx: 6150 }, USDINR, {}, rates)?.costsInr).toBe(
      942.06,
    );
  });

  it("is undefined for a lot of another instrument or a non-finite input", () => {
    expect(perLot("SI_BUY", { spread: 1, mcx: 88_500 }, USDINR, { SI: "GOLDM" })).toBeUndefined();
    expect(perLot("SI_BUY", { spread: Number.NaN, mcx: 88_500 }, USDINR)).toBeUndefined();
    expect(perLot("SI_BUY", { spread: 1, mcx: 88_500 }, Number.POSITIVE_INFINITY)).toBeUndefined();
  });
});

describe("roundPaise", () => {
  it("rounds half away from zero on the decimal the number prints as", () => {
    expect([roundPaise(1.005), roundPaise(-1.005), roundPaise(2.004999)]).toEqual([1.01, -1.01, 2]);
  });
});
