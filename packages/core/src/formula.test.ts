import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileFormula, evaluateSide, FORMULA_CONSTANTS, FormulaError } from "./formula.ts";
import { evaluateDefinition } from "./spread-definition.ts";

function refusal(text: string, legs: readonly string[] = ["g", "s"]): string {
  try {
    compileFormula(text, legs);
  } catch (error) {
    expect(error).toBeInstanceOf(FormulaError);
    return (error as Error).message;
  }
  throw new Error(`${text} was accepted`);
}

describe("compileFormula", () => {
  it("evaluates numbers, + − × ÷, parentheses, unary minus, constants and min/max/abs", () => {
    const f = compileFormula(
      "(g - 2 * s) / 4 + max(g, 2 * g) - abs(min(-s, -2)) + TROY_OUNCE_GRAMS",
      ["g", "s"],
    );
    const [g, s] = [10, 3];
    expect(f.evaluate([g, s])).toBeCloseTo(
      (g - 2 * s) / 4 + Math.max(g, 2 * g) - Math.abs(Math.min(-s, -2)) + 31.1034768,
      12,
    );
    expect(f.directions).toEqual({ g: 1, s: -1 });
  });

  it("derives each leg's direction: a ratio buys the numerator and sells the divisor", () => {
    expect(compileFormula("g / s", ["g", "s"]).directions).toEqual({ g: 1, s: -1 });
    expect(compileFormula("g - s", ["g", "s"]).directions).toEqual({ g: 1, s: -1 });
    expect(
      compileFormula("m - c * fx * 10 / TROY_OUNCE_GRAMS * 1.06", ["m", "c", "fx"]).directions,
    ).toEqual({ m: 1, c: -1, fx: -1 });
    expect(compileFormula("-(s - g)", ["g", "s"]).directions).toEqual({ g: 1, s: -1 });
  });

  it("refuses a leg that moves the spread both ways, saying so", () => {
    expect(refusal("g - g / 2 + s")).toMatch(/leg `g` moves the spread both ways/);
    expect(refusal("(g - s) * s")).toMatch(/leg `s` moves the spread both ways/);
  });

  it("names the position of an unknown name, 1-based", () => {
    expect(refusal("g - s + gm2")).toBe("unknown name `gm2` at 9");
  });

  it.each([
    ["constructor", /unknown name `constructor`/],
    ["__proto__", /unknown name `__proto__`/],
    ["g.constructor", /property access is not allowed/],
    ["g['constructor']", /property access is not allowed/],
    ["process.exit(1)", /only min, max and abs may be called/],
    ["eval('1') + g + s", /only min, max and abs may be called, not `eval`/],
    ["g = s", /Unexpected "=" at 3/],
    ["g > s ? g : s", /not allowed/],
    ["g == s", /the operator `==` is not allowed/],
    ["g ** s", /cannot be read|not allowed/],
    ["'a' + g + s", /only numbers may be written/],
    ["this", /not allowed/],
    ["g, s", /one expression/],
    ["", /empty/],
    [`${"(".repeat(10_000)}g - s${")".repeat(10_000)}`, /at most 500 characters/],
    [`${"(".repeat(40)}g - s${")".repeat(40)}`, /nest at most 32 deep/],
    ["g - s".padEnd(501, " "), /at most 500 characters/],
    ["g +", /at 4|cannot be read|Expected/],
    ["g", /leg `s` is not used/],
  ])("refuses %#: %s", (text, message) => {
    expect(refusal(text)).toMatch(message);
  });

  it("refuses bad leg names and too many legs", () => {
    expect(refusal("G", ["G"])).toMatch(/leg name `G`/);
    expect(refusal("a", ["a", "a"])).toMatch(/two legs are named `a`/);
    const nine = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    expect(refusal(nine.join(" + "), nine)).toMatch(/at most 8 legs/);
  });

  it("gives no value, never Infinity or NaN, for a division by zero", () => {
    const f = compileFormula("g / s", ["g", "s"]);
    expect(f.evaluate([1, 0])).toBeUndefined();
    expect(f.evaluate([0, 0])).toBeUndefined();
  });
});

describe("evaluateSide", () => {
  const ratio = compileFormula("g / s", ["g", "s"]);
  const books = [
    { bid: 100, ask: 101 },
    { bid: 9, ask: 10 },
  ];

  it("BUY takes the ask of a leg that raises the spread and the bid of one that lowers it", () => {
    expect(evaluateSide(ratio, books, "BUY")).toEqual({
      value: 101 / 9,
      prices: [101, 9],
      sides: ["ask", "bid"],
    });
    expect(evaluateSide(ratio, books, "SELL")?.value).toBe(100 / 10);
    expect(evaluateSide(ratio, books, "MID")?.value).toBe(100.5 / 9.5);
  });

  it("has no value on a crossed book", () => {
    expect(evaluateSide(ratio, [{ bid: 102, ask: 101 }, books[1]], "SELL")).toBeUndefined();
  });

  it("has no value when a side it needs is missing", () => {
    expect(evaluateSide(ratio, [{ bid: 100 }, { bid: 9, ask: 10 }], "BUY")).toBeUndefined();
    expect(evaluateSide(ratio, [{ bid: 100 }, { bid: 9, ask: 10 }], "SELL")?.value).toBe(10);
  });

  it("BUY is never below SELL for any books whose asks are at or above their bids", () => {
    const f = compileFormula("a / b - 2 * c + max(a, 2 * a) - abs(-c)", ["a", "b", "c"]);
    const book = fc
      .tuple(
        fc.double({ min: 1, max: 1e4, noNaN: true }),
        fc.double({ min: 0, max: 50, noNaN: true }),
      )
      .map(([bid, width]) => ({ bid, ask: bid + width }));
    fc.assert(
      fc.property(fc.tuple(book, book, book), (books) => {
        const buy = evaluateSide(f, books, "BUY")?.value as number;
        const sell = evaluateSide(f, books, "SELL")?.value as number;
        expect(buy).toBeGreaterThanOrEqual(sell - 1e-9 * Math.abs(sell));
      }),
    );
  });
});

describe("the compiled steps", () => {
  const LEGS = ["a", "b", "c"];
  // Fully parenthesised, so jsep and JavaScript read the same tree.
  const formula = fc.letrec<{ text: string }>((tie) => ({
    text: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom("a", "b", "c", "0", "0.5", "2", "1.06", "1e-3", "TROY_OUNCE_GRAMS"),
      fc
        .tuple(tie("text"), fc.constantFrom("+", "-", "*", "/"), tie("text"))
        .map(([x, op, y]) => `(${x} ${op} ${y})`),
      tie("text").map((x) => `-(${x})`),
      tie("text").map((x) => `abs(${x})`),
      fc
        .tuple(fc.constantFrom("min", "max"), fc.array(tie("text"), { minLength: 2, maxLength: 3 }))
        .map(([fn, args]) => `${fn}(${args.join(", ")})`),
    ),
  })).text;
  const price = fc.oneof(
    fc.constantFrom(0, -0, 1, 2, 100.25),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  );

  /** JavaScript's own value of the text: the reference every step must match to the bit. */
  function reference(text: string): (values: readonly number[]) => number {
    const names = Object.keys(FORMULA_CONSTANTS);
    const run = new Function(...LEGS, ...names, "min", "max", "abs", `return ${text};`) as (
      ...args: unknown[]
    ) => number;
    const constants = names.map((name) => FORMULA_CONSTANTS[name]);
    return (values) => run(...values, ...constants, Math.min, Math.max, Math.abs);
  }

  it("give JavaScript's own value of the formula to the last bit, one set or three at once", () => {
    let compiled = 0;
    fc.assert(
      fc.property(
        formula,
        fc.array(fc.tuple(price, price, price), { minLength: 3, maxLength: 3 }),
        (text, sets) => {
          const legs = LEGS.filter((leg) => new RegExp(`\\b${leg}\\b`).test(text));
          let f: ReturnType<typeof compileFormula>;
          try {
            f = compileFormula(text, legs);
          } catch (error) {
            // Undecidable directions and the like: refused, so nothing to evaluate.
            expect(error).toBeInstanceOf(FormulaError);
            return;
          }
          compiled++;
          const js = reference(text);
          const full = (values: readonly number[]) =>
            LEGS.map((leg) => values[legs.indexOf(leg)] ?? 0);
          const lanes = sets.map((set) => set.slice(0, legs.length));
          const out = new Float64Array(3);
          f.evaluateThree(lanes.flat(), out);
          // The same run from inside one array that takes the results too.
          const one = new Float64Array(5 + 3 * legs.length + 3);
          one.set(lanes.flat(), 5);
          f.evaluateThree(one, one, 5, 5 + 3 * legs.length);
          for (const [lane, values] of lanes.entries()) {
            const expected = js(full(values));
            expect(Object.is(out[lane], expected)).toBe(true);
            expect(Object.is(one[5 + 3 * legs.length + lane], expected)).toBe(true);
            expect(f.evaluate(values)).toBe(Number.isFinite(expected) ? expected : undefined);
          }
        },
      ),
      { numRuns: 3_000 },
    );
    // Most random formulas mix a leg's signs and are refused; enough were run all the same.
    expect(compiled).toBeGreaterThan(300);
  });

  it("evaluateDefinition's one run gives evaluateSide's BUY, SELL and mid to the bit", () => {
    const f = compileFormula("max(a, 2) / b - c * 1.06 + abs(-a)", ["a", "b", "c"]);
    const legs = [
      { name: "a", instrument: "A" },
      { name: "b", instrument: "B" },
      { name: "c", instrument: "C" },
    ];
    const side = fc.option(fc.constantFrom(0, 1, 50, 99.5, 100, 100.25), { nil: undefined });
    const book = fc.option(fc.record({ bid: side, ask: side }, { requiredKeys: [] }), {
      nil: undefined,
    });
    let valued = 0;
    fc.assert(
      fc.property(fc.tuple(book, book, book), (books) => {
        const byKey = new Map(legs.map((leg, i) => [leg.instrument, books[i]]));
        const got = evaluateDefinition({ legs, compiled: f }, (key) => byKey.get(key));
        const mid = evaluateSide(f, books, "MID")?.value;
        for (const which of ["BUY", "SELL"] as const) {
          const expected = evaluateSide(f, books, which);
          const value = got[which];
          if (!expected) {
            expect(value).toBeUndefined();
            continue;
          }
          valued++;
          expect(Object.is(value?.spread, expected.value)).toBe(true);
          expect(Object.is(value?.mid, mid)).toBe(true);
          expect(Object.values(value?.legs ?? {}).map((leg) => leg.price)).toEqual(expected.prices);
          expect(Object.values(value?.legs ?? {}).map((leg) => leg.side)).toEqual(expected.sides);
        }
      }),
      { numRuns: 3_000 },
    );
    expect(valued).toBeGreaterThan(200);
  });
});
