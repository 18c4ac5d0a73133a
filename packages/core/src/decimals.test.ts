import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cmePriceDecimals,
  formatNumber,
  formatSigned,
  formatSignedText,
  MISSING_VALUE,
  mcxPriceDecimals,
  rawPriceDecimals,
  spreadDecimals,
  thresholdDecimals,
} from "./decimals.ts";
import { SPREAD_SYMBOLS } from "./symbol.ts";

describe("decimals per column (docs/spec.md §9)", () => {
  it("spreads: 2, copper 4, whatever key the row has", () => {
    for (const key of ["GC", "GC_BUY", "SI_SELL", "NG_BUY", "CL_SELL", "GOLD", "CRUDEOIL"]) {
      expect(spreadDecimals(key)).toBe(2);
    }
    for (const key of ["HG", "HG_BUY", "HG_SELL", "COPPER"]) expect(spreadDecimals(key)).toBe(4);
  });

  it("CME column: 3, copper 4", () => {
    expect(cmePriceDecimals("GC")).toBe(3);
    expect(cmePriceDecimals("SI_BUY")).toBe(3);
    expect(cmePriceDecimals("NG")).toBe(3);
    expect(cmePriceDecimals("HG")).toBe(4);
    expect(cmePriceDecimals("HG_SELL")).toBe(4);
  });

  it("MCX column: 2, copper 4", () => {
    expect(mcxPriceDecimals("GOLD")).toBe(2);
    expect(mcxPriceDecimals("CL_BUY")).toBe(2);
    expect(mcxPriceDecimals("COPPER")).toBe(4);
    expect(mcxPriceDecimals("HG_BUY")).toBe(4);
  });

  it("raw price table: CME rows as the CME column, MCX rows 2 (copper 4)", () => {
    expect(rawPriceDecimals("cme", "GC")).toBe(3);
    expect(rawPriceDecimals("cme", "HG")).toBe(4);
    expect(rawPriceDecimals("mcx", "GOLD")).toBe(2);
    expect(rawPriceDecimals("mcx", "COPPER")).toBe(4);
    expect(rawPriceDecimals("spot", "XAUUSD")).toBe(2);
    expect(rawPriceDecimals("index", "NIFTY50")).toBe(2);
    expect(rawPriceDecimals("fx", "USDINR")).toBe(4);
  });

  it("alert thresholds: 4 for NG, CL, HG; 2 otherwise", () => {
    const four = SPREAD_SYMBOLS.filter((s) => thresholdDecimals(s) === 4);
    expect(four).toEqual(["HG_BUY", "HG_SELL", "NG_BUY", "NG_SELL", "CL_BUY", "CL_SELL"]);
    expect(thresholdDecimals("GC_BUY")).toBe(2);
    expect(thresholdDecimals("SI_SELL")).toBe(2);
  });

  it("falls back to the general rule for an unknown key", () => {
    expect(spreadDecimals("XYZ")).toBe(2);
    expect(cmePriceDecimals("")).toBe(3);
    expect(thresholdDecimals("__proto__")).toBe(2);
  });
});

describe("formatNumber", () => {
  it("pads to fixed decimals without grouping", () => {
    expect(formatNumber(76420, 2)).toBe("76420.00");
    expect(formatNumber(1234567.891, 3)).toBe("1234567.891");
    expect(formatNumber(2650.4, 3)).toBe("2650.400");
    expect(formatNumber(4.15, 4)).toBe("4.1500");
    expect(formatNumber(0, 2)).toBe("0.00");
    expect(formatNumber(12.7, 0)).toBe("13");
  });

  it("rounds half away from zero on the decimal the user sees", () => {
    // toFixed gives "1.00", "9.99" and "1.4": it rounds the binary value just below the half.
    expect(formatNumber(1.005, 2)).toBe("1.01");
    expect(formatNumber(-1.005, 2)).toBe("-1.01");
    expect(formatNumber(9.995, 2)).toBe("10.00");
    expect(formatNumber(1.45, 1)).toBe("1.5");
    expect(formatNumber(0.125, 2)).toBe("0.13");
    expect(formatNumber(2.5, 0)).toBe("3");
    expect(formatNumber(-2.5, 0)).toBe("-3");
    expect(formatNumber(0.0049999, 2)).toBe("0.00");
    expect(formatNumber(99.995, 2)).toBe("100.00");
  });

  it("rounds float noise away", () => {
    expect(formatNumber(0.1 + 0.2, 2)).toBe("0.30");
    expect(formatNumber(100.02 - 100.01, 2)).toBe("0.01");
  });

  it("never shows negative zero", () => {
    expect(formatNumber(-0, 2)).toBe("0.00");
    expect(formatNumber(-0.001, 2)).toBe("0.00");
    expect(formatNumber(-0.004999, 2)).toBe("0.00");
    expect(formatNumber(-0.005, 2)).toBe("-0.01");
  });

  it("handles numbers that print in exponent form", () => {
    expect(formatNumber(1e-7, 2)).toBe("0.00");
    expect(formatNumber(5e-7, 6)).toBe("0.000001");
    expect(formatNumber(1.5e-7, 8)).toBe("0.00000015");
    expect(formatNumber(1e21, 2)).toBe("1000000000000000000000.00");
  });

  it("shows MISSING_VALUE for missing or non-finite input", () => {
    expect(MISSING_VALUE).toBe("—");
    expect(formatNumber(undefined, 2)).toBe("—");
    expect(formatNumber(null, 2)).toBe("—");
    expect(formatNumber(Number.NaN, 2)).toBe("—");
    expect(formatNumber(Number.POSITIVE_INFINITY, 2)).toBe("—");
  });

  it("clamps decimals to a whole number from 0 to 20", () => {
    expect(formatNumber(1.25, 1.9)).toBe("1.3");
    expect(formatNumber(1.5, -3)).toBe("2");
    expect(formatNumber(1.5, Number.NaN)).toBe("2");
    expect(formatNumber(1, 50)).toBe(`1.${"0".repeat(20)}`);
  });

  it("parses back to within half a unit of the last decimal", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e12, max: 1e12, noNaN: true }),
        fc.integer({ min: 0, max: 8 }),
        (x, d) => {
          const text = formatNumber(x, d);
          expect(text).toMatch(d === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${d}}$`));
          const slack = Math.abs(x) * 2 ** -50;
          expect(Math.abs(Number(text) - x)).toBeLessThanOrEqual(0.5 * 10 ** -d + slack);
        },
      ),
    );
  });

  it("agrees with toFixed wherever toFixed has no half to misjudge", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 4 }), (n, d) => {
        // n / 100 has at most two decimals, so at 2+ decimals there is nothing to round.
        const x = n / 100;
        if (d >= 2) expect(formatNumber(x, d)).toBe(x.toFixed(d));
      }),
    );
  });
});

describe("formatSigned", () => {
  it("prefixes + for positive, - for negative, nothing for zero", () => {
    expect(formatSigned(12.34, 2)).toBe("+12.34");
    expect(formatSigned(-0.5, 2)).toBe("-0.50");
    expect(formatSigned(0, 2)).toBe("0.00");
    expect(formatSigned(-0, 2)).toBe("0.00");
    expect(formatSigned(0.004, 2)).toBe("0.00");
    expect(formatSigned(-0.004, 2)).toBe("0.00");
    expect(formatSigned(0.005, 2)).toBe("+0.01");
    expect(formatSigned(21.96855402, 4)).toBe("+21.9686");
  });

  it("shows MISSING_VALUE without a sign", () => {
    expect(formatSigned(undefined, 2)).toBe("—");
    expect(formatSigned(Number.NaN, 2)).toBe("—");
  });
});

describe("formatSignedText", () => {
  it("writes a negative with U+2212, a positive with +, zero and missing unsigned", () => {
    expect(formatSignedText(-1234.12, 2)).toBe("\u22121234.12");
    expect(formatSignedText(12.34, 2)).toBe("+12.34");
    expect(formatSignedText(-0.004, 2)).toBe("0.00");
    expect(formatSignedText(undefined, 2)).toBe("—");
  });
});
