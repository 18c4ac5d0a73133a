// Spread formulas (docs/formulas.md): parsed once by jsep, checked against a short list of what
// may appear, and compiled to plain closures over the legs' numbers. Nothing in a formula is
// ever looked up on an object or called outside `min`, `max` and `abs`, so a formula cannot reach
// anything but its legs' prices.
import jsep from "jsep";
import { TROY_OUNCE_GRAMS } from "./instrument.ts";

export const MAX_FORMULA_LENGTH = 500;
/** Parentheses (and nested calls) deeper than this are refused before parsing. */
export const MAX_FORMULA_DEPTH = 32;
export const MAX_LEGS = 8;

/** Named constants a formula may use (docs/formulas.md lists them). */
export const FORMULA_CONSTANTS: Readonly<Record<string, number>> = {
  TROY_OUNCE_GRAMS,
  GRAMS_PER_KG: 1000,
  POUNDS_PER_KG: 2.20462262185,
};

const FUNCTIONS = {
  min: Math.min,
  max: Math.max,
  abs: Math.abs,
} as const;
type FunctionName = keyof typeof FUNCTIONS;

/** Leg names: short, lower-case, so they never collide with a constant or read as a number. */
const LEG_NAME = /^[a-z][a-z0-9_]{0,15}$/;

export function isLegName(name: string): boolean {
  return LEG_NAME.test(name) && !Object.hasOwn(FUNCTIONS, name);
}

export class FormulaError extends Error {
  override name = "FormulaError";
  constructor(
    message: string,
    /** 1-based character position in the formula, where one can be named. */
    readonly position?: number,
  ) {
    super(position === undefined ? message : `${message} at ${position}`);
  }
}

/** How a leg moves the spread: +1 when a rise in the leg raises it, −1 when it lowers it. */
export type Direction = 1 | -1;

/** A leg's book: BUY and SELL read the side a trade would take, mid the middle. */
export interface LegBook {
  bid?: number | undefined;
  ask?: number | undefined;
}

export interface CompiledFormula {
  /** The formula's leg names, in the order `evaluate`'s values come. */
  readonly legs: readonly string[];
  readonly directions: Readonly<Record<string, Direction>>;
  /** The value at these leg prices (in `legs` order); undefined for no value (÷ 0, ∞, NaN). */
  evaluate(values: ArrayLike<number>): number | undefined;
}

type Node = jsep.Expression;
type Evaluator = (values: ArrayLike<number>) => number;

/** A value's sign where it can be told from the formula alone (legs are prices, so positive). */
type Sign = 1 | -1 | 0 | "unknown";
/** Per leg, the signs it moves the node's value with: both means undecidable. */
type Moves = Map<string, Set<1 | -1>>;

interface Analysed {
  run: Evaluator;
  sign: Sign;
  moves: Moves;
  constant: boolean;
}

function times(a: Sign, b: Sign): Sign {
  if (a === 0 || b === 0) return 0;
  if (a === "unknown" || b === "unknown") return "unknown";
  return (a * b) as 1 | -1;
}

/** Scales every leg's moves by a sign; an unknown sign leaves each leg both ways. */
function scaled(moves: Moves, by: Sign): Moves {
  const out: Moves = new Map();
  if (by === 0) return out;
  for (const [leg, signs] of moves) {
    const next = new Set<1 | -1>();
    for (const s of signs) {
      if (by === "unknown") {
        next.add(1);
        next.add(-1);
      } else next.add((s * by) as 1 | -1);
    }
    out.set(leg, next);
  }
  return out;
}

function merged(...all: Moves[]): Moves {
  const out: Moves = new Map();
  for (const moves of all)
    for (const [leg, signs] of moves) {
      const into = out.get(leg) ?? new Set<1 | -1>();
      for (const s of signs) into.add(s);
      out.set(leg, into);
    }
  return out;
}

function signOfNumber(value: number): Sign {
  return value > 0 ? 1 : value < 0 ? -1 : 0;
}

/** The first place `name` stands as a whole identifier in `text` (1-based), for messages. */
function positionOf(text: string, name: string): number | undefined {
  const pattern = new RegExp(`(^|[^\\w$.])(${name.replace(/[$]/g, "\\$")})(?![\\w$])`);
  const match = pattern.exec(text);
  return match ? match.index + (match[1]?.length ?? 0) + 1 : undefined;
}

function deepestNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const char of text) {
    if (char === "(" || char === "[") deepest = Math.max(deepest, ++depth);
    else if (char === ")" || char === "]") depth--;
  }
  return deepest;
}

class Compiler {
  constructor(
    private readonly text: string,
    private readonly legIndex: ReadonlyMap<string, number>,
  ) {}

  node(n: Node): Analysed {
    switch (n.type) {
      case "Literal":
        return this.literal(n as jsep.Literal);
      case "Identifier":
        return this.identifier((n as jsep.Identifier).name);
      case "UnaryExpression":
        return this.unary(n as jsep.UnaryExpression);
      case "BinaryExpression":
        return this.binary(n as jsep.BinaryExpression);
      case "CallExpression":
        return this.call(n as jsep.CallExpression);
      case "MemberExpression":
        throw new FormulaError("property access is not allowed", this.near(n));
      case "Compound":
      case "SequenceExpression":
        throw new FormulaError("a formula is one expression (no `,` or `;` outside a call)");
      default:
        throw new FormulaError(`${n.type} is not allowed`, this.near(n));
    }
  }

  /** A position for a refused node: its first identifier's, where it has one. */
  private near(n: Node): number | undefined {
    const name = findIdentifier(n);
    return name === undefined ? undefined : positionOf(this.text, name);
  }

  private literal(n: jsep.Literal): Analysed {
    if (typeof n.value !== "number" || !Number.isFinite(n.value))
      throw new FormulaError(`only numbers may be written: ${n.raw}`, this.text.indexOf(n.raw) + 1);
    const value = n.value;
    return { run: () => value, sign: signOfNumber(value), moves: new Map(), constant: true };
  }

  private identifier(name: string): Analysed {
    const index = this.legIndex.get(name);
    if (index !== undefined)
      return {
        run: (values) => values[index] as number,
        sign: 1,
        moves: new Map([[name, new Set<1 | -1>([1])]]),
        constant: false,
      };
    if (Object.hasOwn(FORMULA_CONSTANTS, name)) {
      const value = FORMULA_CONSTANTS[name] as number;
      return { run: () => value, sign: signOfNumber(value), moves: new Map(), constant: true };
    }
    throw new FormulaError(`unknown name \`${name}\``, positionOf(this.text, name));
  }

  private unary(n: jsep.UnaryExpression): Analysed {
    const arg = this.node(n.argument);
    if (n.operator === "+") return arg;
    if (n.operator !== "-")
      throw new FormulaError(`the operator \`${n.operator}\` is not allowed`, this.near(n));
    const run = arg.run;
    return {
      run: (values) => -run(values),
      sign: times(arg.sign, -1),
      moves: scaled(arg.moves, -1),
      constant: arg.constant,
    };
  }

  private binary(n: jsep.BinaryExpression): Analysed {
    const op = n.operator;
    if (op !== "+" && op !== "-" && op !== "*" && op !== "/")
      throw new FormulaError(`the operator \`${op}\` is not allowed`, this.near(n));
    const a = this.node(n.left);
    const b = this.node(n.right);
    const [ra, rb] = [a.run, b.run];
    const constant = a.constant && b.constant;
    switch (op) {
      case "+":
        return {
          run: (v) => ra(v) + rb(v),
          sign:
            a.sign === b.sign ? a.sign : a.sign === 0 ? b.sign : b.sign === 0 ? a.sign : "unknown",
          moves: merged(a.moves, b.moves),
          constant,
        };
      case "-": {
        const minusB = times(b.sign, -1);
        return {
          run: (v) => ra(v) - rb(v),
          sign:
            a.sign === minusB ? a.sign : a.sign === 0 ? minusB : minusB === 0 ? a.sign : "unknown",
          moves: merged(a.moves, scaled(b.moves, -1)),
          constant,
        };
      }
      case "*":
        return {
          run: (v) => ra(v) * rb(v),
          sign: times(a.sign, b.sign),
          moves: merged(scaled(a.moves, b.sign), scaled(b.moves, a.sign)),
          constant,
        };
      default:
        // d(a/b)/db = −a/b²: a leg in the divisor moves the value against a's sign.
        return {
          run: (v) => ra(v) / rb(v),
          sign: times(a.sign, b.sign),
          moves: merged(scaled(a.moves, b.sign), scaled(b.moves, times(a.sign, -1))),
          constant,
        };
    }
  }

  private call(n: jsep.CallExpression): Analysed {
    const callee = n.callee;
    const name = callee.type === "Identifier" ? (callee as jsep.Identifier).name : undefined;
    if (name === undefined || !Object.hasOwn(FUNCTIONS, name))
      throw new FormulaError(
        `only min, max and abs may be called${name ? `, not \`${name}\`` : ""}`,
        name ? positionOf(this.text, name) : this.near(n),
      );
    const fn = name as FunctionName;
    const args = n.arguments.map((arg) => this.node(arg));
    if (fn === "abs") {
      if (args.length !== 1)
        throw new FormulaError("abs takes one argument", positionOf(this.text, fn));
      const arg = args[0] as Analysed;
      const run = arg.run;
      return {
        run: (v) => Math.abs(run(v)),
        sign: arg.sign === 0 ? 0 : 1,
        moves: scaled(arg.moves, arg.sign),
        constant: arg.constant,
      };
    }
    if (args.length < 2)
      throw new FormulaError(`${fn} takes two or more arguments`, positionOf(this.text, fn));
    const runs = args.map((a) => a.run);
    const pick = FUNCTIONS[fn];
    const signs = new Set(args.map((a) => a.sign));
    return {
      // min and max never fall as an argument rises: each argument's moves carry through.
      run: (v) => pick(...runs.map((r) => r(v))),
      sign: signs.size === 1 ? (args[0] as Analysed).sign : "unknown",
      moves: merged(...args.map((a) => a.moves)),
      constant: args.every((a) => a.constant),
    };
  }
}

function findIdentifier(n: Node): string | undefined {
  if (n.type === "Identifier") return (n as jsep.Identifier).name;
  for (const value of Object.values(n)) {
    const children = Array.isArray(value) ? value : [value];
    for (const child of children) {
      if (child && typeof child === "object" && "type" in child) {
        const found = findIdentifier(child as Node);
        if (found !== undefined) return found;
      }
    }
  }
  return undefined;
}

function parse(text: string): Node {
  try {
    return jsep(text);
  } catch (error) {
    const index = (error as { index?: unknown }).index;
    const description = (error as { description?: unknown }).description;
    throw new FormulaError(
      typeof description === "string" ? description : "the formula cannot be read",
      typeof index === "number" ? index + 1 : undefined,
    );
  }
}

/**
 * Compiles `text` over the named legs. Throws FormulaError (with a position where one can be
 * named) for bad syntax, an unknown name, anything outside numbers, legs, constants, `+ - * /`,
 * parentheses, unary minus and min/max/abs, a leg that is never used, and a leg whose direction
 * cannot be decided (it moves the spread both ways, so neither its bid nor its ask is the price
 * a trade would take).
 */
export function compileFormula(text: string, legs: readonly string[]): CompiledFormula {
  if (text.length > MAX_FORMULA_LENGTH)
    throw new FormulaError(`a formula is at most ${MAX_FORMULA_LENGTH} characters`);
  if (text.trim() === "") throw new FormulaError("the formula is empty");
  if (deepestNesting(text) > MAX_FORMULA_DEPTH)
    throw new FormulaError(`parentheses nest at most ${MAX_FORMULA_DEPTH} deep`);
  if (legs.length === 0) throw new FormulaError("a spread has at least one leg");
  if (legs.length > MAX_LEGS) throw new FormulaError(`a spread has at most ${MAX_LEGS} legs`);
  const legIndex = new Map<string, number>();
  for (const [index, leg] of legs.entries()) {
    if (!isLegName(leg))
      throw new FormulaError(
        `leg name \`${leg}\` must be a lower-case letter then up to 15 letters, digits or _`,
      );
    if (legIndex.has(leg)) throw new FormulaError(`two legs are named \`${leg}\``);
    legIndex.set(leg, index);
  }
  const analysed = new Compiler(text, legIndex).node(parse(text));
  const directions: Record<string, Direction> = {};
  for (const leg of legs) {
    const signs = analysed.moves.get(leg);
    if (!signs || signs.size === 0)
      throw new FormulaError(`leg \`${leg}\` is not used in the formula`);
    if (signs.size > 1)
      throw new FormulaError(
        `leg \`${leg}\` moves the spread both ways, so neither its bid nor its ask is the price a trade takes`,
        positionOf(text, leg),
      );
    directions[leg] = [...signs][0] as Direction;
  }
  const run = analysed.run;
  return {
    legs: [...legs],
    directions,
    evaluate(values) {
      const value = run(values);
      return Number.isFinite(value) ? value : undefined;
    },
  };
}

/** Which side of each leg's book a spread trade takes, and the value it gives. */
export type SpreadSide = "BUY" | "SELL" | "MID";

/**
 * The spread's value for one side from the legs' books (in `formula.legs` order): BUY takes each
 * leg at its ask when a rise in the leg raises the spread, at its bid when it lowers it; SELL the
 * reverse; MID the middle of each book. A single-price leg (FX, an index) is given with bid and
 * ask equal. Undefined when a needed side is missing, a book is crossed or the value is none (÷ 0).
 */
export function evaluateSide(
  formula: CompiledFormula,
  books: ArrayLike<LegBook | undefined>,
  side: SpreadSide,
): { value: number; prices: number[]; sides: Array<"bid" | "ask" | "mid"> } | undefined {
  const prices: number[] = [];
  const sides: Array<"bid" | "ask" | "mid"> = [];
  for (const [index, leg] of formula.legs.entries()) {
    const book = books[index];
    // A crossed book (bid above ask) cannot be traded as shown: no value, as for the built-ins.
    if (!book || (book.bid !== undefined && book.ask !== undefined && book.bid > book.ask))
      return undefined;
    let price: number | undefined;
    let taken: "bid" | "ask" | "mid";
    if (side === "MID") {
      taken = "mid";
      price =
        book.bid !== undefined && book.ask !== undefined ? (book.bid + book.ask) / 2 : undefined;
    } else {
      const up = (formula.directions[leg] === 1) === (side === "BUY");
      taken = up ? "ask" : "bid";
      price = up ? book.ask : book.bid;
    }
    if (price === undefined || !Number.isFinite(price)) return undefined;
    prices.push(price);
    sides.push(taken);
  }
  const value = formula.evaluate(prices);
  return value === undefined ? undefined : { value, prices, sides };
}
