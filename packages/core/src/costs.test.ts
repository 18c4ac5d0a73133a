import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { roundPaise, roundTo } from "./costs.ts";
import { formatNumber } from "./decimals.ts";

/** What roundTo means (its doc): the shortest decimal form rounded half away from zero, read back. */
const byDigits = (value: number, decimals: number) => Number(formatNumber(value, decimals));

/** The double next to `value` towards +∞ or −∞. */
function nextTo(value: number, direction: 1 | -1): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const up = value >= 0 === (direction === 1);
  view.setBigUint64(0, value === 0 ? 1n : up ? bits + 1n : bits - 1n);
  const next = view.getFloat64(0);
  return value === 0 && direction === -1 ? -next : next;
}

/** A value whose shortest decimal form ends in 5 one place past `decimals`: "1.005" at 2. */
const halves = fc
  .tuple(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.integer({ min: 0, max: 8 }))
  .map(([units, decimals]) => {
    const digits = `${Math.abs(units)}5`.padStart(decimals + 2, "0");
    const text = `${units < 0 ? "-" : ""}${digits.slice(0, -decimals - 1)}.${digits.slice(-decimals - 1)}`;
    return { value: Number(text), decimals };
  });

describe("roundTo", () => {
  it("rounds a half away from zero on the decimal form, not on the binary value", () => {
    // 1.005 is stored as 1.00499999999999989…: toFixed gives 1.00, the trader typed 1.005.
    expect(roundTo(1.005, 2)).toBe(1.01);
    expect(roundTo(-1.005, 2)).toBe(-1.01);
    expect(roundTo(2.675, 2)).toBe(2.68);
    expect(roundTo(1234.125, 2)).toBe(1234.13);
    expect(roundPaise(0.125)).toBe(0.13);
    expect(roundTo(8.345, 2)).toBe(8.35);
  });

  it("gives no sign to what rounds to zero, and leaves non-finite values as they are", () => {
    expect(Object.is(roundTo(-0.004, 2), 0)).toBe(true);
    expect(Object.is(roundTo(-0, 2), 0)).toBe(true);
    expect(roundTo(Number.NaN, 2)).toBeNaN();
    expect(roundTo(Number.POSITIVE_INFINITY, 2)).toBe(Number.POSITIVE_INFINITY);
  });

  it("equals the digit-string rounding for any double and 0…20 decimals", () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer({ min: 0, max: 20 }),
        (value, decimals) => Object.is(roundTo(value, decimals), byDigits(value, decimals)),
      ),
      { numRuns: 20_000 },
    );
  });

  it("equals it for money-sized values at paise and copper's four places", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e9, max: 1e9, noNaN: true }),
        fc.constantFrom(0, 1, 2, 3, 4, 6),
        (value, decimals) => Object.is(roundTo(value, decimals), byDigits(value, decimals)),
      ),
      { numRuns: 50_000 },
    );
  });

  it("equals it on exact halves and on the doubles either side of them", () => {
    fc.assert(
      fc.property(halves, ({ value, decimals }) => {
        for (const v of [value, nextTo(value, 1), nextTo(value, -1)]) {
          expect(Object.is(roundTo(v, decimals), byDigits(v, decimals))).toBe(true);
        }
      }),
      { numRuns: 20_000 },
    );
  });

  it("takes the digit string's reading of odd decimals (truncated, clamped)", () => {
    for (const decimals of [-1, 2.7, 21, 40, Number.NaN]) {
      expect(roundTo(12.3456789, decimals)).toBe(byDigits(12.3456789, decimals));
    }
  });
});
