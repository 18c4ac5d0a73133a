import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INSTRUMENTS } from "./instrument.ts";
import { buySpread, sellSpread } from "./spread.ts";
import { checkDefinition, evaluateDefinition } from "./spread-definition.ts";
import {
  basisSpread,
  calendarSpread,
  miniSpread,
  paritySpread,
  ratioSpread,
} from "./spread-template.ts";

const knowsAll = () => true;
/** The factor as a formula writes it: the same double the built-ins multiply by. */
const FACTOR_TEXT: Record<string, string> = {
  GC: "10 / TROY_OUNCE_GRAMS",
  SI: "1000 / TROY_OUNCE_GRAMS",
  HG: "2.20462262185",
  NG: "1",
  CL: "1",
};

describe("templates", () => {
  it("the parity template gives the built-in spreads' numbers to the last digit", () => {
    const price = fc.double({ min: 0.5, max: 200_000, noNaN: true });
    const book = fc
      .tuple(price, fc.double({ min: 0, max: 100, noNaN: true }))
      .map(([bid, width]) => ({ bid, ask: bid + width }));
    for (const instrument of INSTRUMENTS) {
      const definition = checkDefinition(
        paritySpread(
          instrument.mcxKey,
          instrument.cmeKey,
          FACTOR_TEXT[instrument.id] as string,
          instrument.defaultDuty,
        ),
        knowsAll,
      );
      fc.assert(
        fc.property(book, book, fc.double({ min: 50, max: 120, noNaN: true }), (cme, mcx, fx) => {
          const books: Record<string, { bid: number; ask: number }> = {
            [instrument.mcxKey]: mcx,
            [instrument.cmeKey]: cme,
            USDINR: { bid: fx, ask: fx },
          };
          const value = evaluateDefinition(definition, (key) => books[key]);
          expect(value.BUY?.spread).toBe(
            buySpread(cme, mcx, instrument, fx, instrument.defaultDuty)?.spread,
          );
          expect(value.SELL?.spread).toBe(
            sellSpread(cme, mcx, instrument, fx, instrument.defaultDuty)?.spread,
          );
        }),
        { numRuns: 200 },
      );
    }
  });

  it("a calendar buys the first month and sells the second", () => {
    const definition = checkDefinition(calendarSpread("GOLD", "near", "next"), knowsAll);
    expect(definition.name).toBe("GOLD near/next calendar");
    expect(definition.legs.map((l) => l.instrument)).toEqual(["GOLD", "GOLD@next"]);
    const books: Record<string, { bid: number; ask: number }> = {
      GOLD: { bid: 76_400, ask: 76_410 },
      "GOLD@next": { bid: 77_100, ask: 77_115 },
    };
    const value = evaluateDefinition(definition, (key) => books[key]);
    expect(value.BUY).toEqual({
      spread: 76_410 - 77_100,
      mid: 76_405 - 77_107.5,
      legs: {
        a: { price: 76_410, side: "ask", instrument: "GOLD" },
        b: { price: 77_100, side: "bid", instrument: "GOLD@next" },
      },
    });
    expect(value.SELL?.spread).toBe(76_400 - 77_115);
  });

  it("ratio, mini and basis templates check and evaluate", () => {
    const books: Record<string, { bid: number; ask: number }> = {
      GOLD: { bid: 100, ask: 101 },
      SILVER: { bid: 10, ask: 11 },
      GOLDM: { bid: 102, ask: 103 },
      GC: { bid: 4000, ask: 4001 },
      XAUUSD: { bid: 3990, ask: 3990 },
    };
    const evaluate = (input: Parameters<typeof checkDefinition>[0]) =>
      evaluateDefinition(checkDefinition(input, knowsAll), (key) => books[key]).BUY?.spread;
    expect(evaluate(ratioSpread("GOLD", "SILVER"))).toBe(101 / 10);
    expect(evaluate(miniSpread("GOLDM", "GOLD"))).toBe(103 - 100);
    expect(evaluate(basisSpread("GC", "XAUUSD"))).toBe(4001 - 3990);
  });
});

describe("checkDefinition", () => {
  const knows = (key: string) => ["GOLD", "SILVER"].includes(key);
  const base = {
    name: "Gold/silver",
    legs: [
      { name: "g", instrument: "GOLD" },
      { name: "s", instrument: "SILVER" },
    ],
    formula: "g / s",
  };

  it.each([
    [{ ...base, name: " " }, /^name: must not be empty/],
    [{ ...base, name: "x".repeat(61) }, /^name: at most 60/],
    [{ ...base, legs: [] }, /^legs: a spread has at least one leg/],
    [
      { ...base, legs: [base.legs[0], { name: "s", instrument: "ZINC" }] },
      /legs.1.instrument: ZINC/,
    ],
    [{ ...base, legs: [{ ...base.legs[0], lots: 1.5 }, base.legs[1]] }, /legs.0.lots/],
    [{ ...base, legs: [{ ...base.legs[0], lots: 0 }, base.legs[1]] }, /legs.0.lots/],
    [{ ...base, formula: "g / s2" }, /unknown name `s2` at 5/],
  ])("refuses %#", (input, message) => {
    expect(() => checkDefinition(input as typeof base, knows)).toThrow(message);
  });

  it("has no value, not a number, when a leg has no price", () => {
    const definition = checkDefinition(base, knows);
    expect(evaluateDefinition(definition, () => undefined)).toEqual({
      BUY: undefined,
      SELL: undefined,
    });
  });
});
