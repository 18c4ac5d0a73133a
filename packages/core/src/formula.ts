// Spread formulas (docs/formulas.md): parsed once by jsep, checked against a short list of what
// may appear, and compiled to a flat list of arithmetic steps over the legs' numbers (a small
// stack machine). Nothing in a formula is ever looked up on an object or called outside `min`,
// `max` and `abs`, so a formula cannot reach anything but its legs' prices. One run of the steps
// can carry three sets of leg prices at once (BUY, SELL and mid), which is how the server
// evaluates a definition at every quote of its legs (BENCHMARKS.md, "Spread definitions").
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
  /**
   * Three values in one run, each exactly as `evaluate` gives it: `prices` holds three sets of
   * leg prices one after the other from `at` (legs.length each: BUY's, SELL's, mid's), and
   * `out[outAt..outAt + 2]` receives the three raw results, which may be non-finite (no value:
   * the caller checks). Allocates nothing; `prices` and `out` may be one array.
   */
  evaluateThree(prices: ArrayLike<number>, out: Float64Array, at?: number, outAt?: number): void;
}

type Node = jsep.Expression;

/**
 * The steps a formula compiles to: pairs of [operation, argument] run over a stack of numbers.
 * A step whose right operand is a leg or a constant reads it directly (`a - b` is two steps).
 */
enum Op {
  /** Push leg `arg`'s price. */
  Leg,
  /** Push constant `arg`. */
  Const,
  Neg,
  Abs,
  Add,
  Sub,
  Mul,
  Div,
  /** Replace the top `arg` numbers by their least (as Math.min). */
  Min,
  Max,
  AddLeg,
  SubLeg,
  MulLeg,
  DivLeg,
  AddConst,
  SubConst,
  MulConst,
  DivConst,
}

/** A compiled piece: the steps that leave its value on top of the stack. */
interface Program {
  steps: number[];
  /** The deepest the stack gets while running them. */
  depth: number;
}

/** A value's sign where it can be told from the formula alone (legs are prices, so positive). */
type Sign = 1 | -1 | 0 | "unknown";
/** Per leg, the signs it moves the node's value with: both means undecidable. */
type Moves = Map<string, Set<1 | -1>>;

interface Analysed {
  program: Program;
  sign: Sign;
  moves: Moves;
  /** The value of a piece with no leg in it, worked out once when compiled. */
  value: number | undefined;
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

/** A piece with no leg in it: its value is a constant step. */
function constantPiece(value: number, constants: number[]): Analysed {
  constants.push(value);
  return {
    program: { steps: [Op.Const, constants.length - 1], depth: 1 },
    sign: signOfNumber(value),
    moves: new Map(),
    value,
  };
}

/** `a op b` as steps: b read directly when it is one leg or a constant, else from the stack. */
function binarySteps(a: Program, b: Program, op: Op.Add | Op.Sub | Op.Mul | Op.Div): Program {
  if (b.steps.length === 2 && (b.steps[0] === Op.Leg || b.steps[0] === Op.Const)) {
    const direct = b.steps[0] === Op.Leg ? op - Op.Add + Op.AddLeg : op - Op.Add + Op.AddConst;
    return { steps: [...a.steps, direct, b.steps[1] as number], depth: a.depth };
  }
  return {
    steps: [...a.steps, ...b.steps, op, 0],
    depth: Math.max(a.depth, b.depth + 1),
  };
}

class Compiler {
  /** The constants the steps read (a formula's numbers, named constants, folded pieces). */
  readonly constants: number[] = [];

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
    return constantPiece(n.value, this.constants);
  }

  private identifier(name: string): Analysed {
    const index = this.legIndex.get(name);
    if (index !== undefined)
      return {
        program: { steps: [Op.Leg, index], depth: 1 },
        sign: 1,
        moves: new Map([[name, new Set<1 | -1>([1])]]),
        value: undefined,
      };
    if (Object.hasOwn(FORMULA_CONSTANTS, name))
      return constantPiece(FORMULA_CONSTANTS[name] as number, this.constants);
    throw new FormulaError(`unknown name \`${name}\``, positionOf(this.text, name));
  }

  /**
   * A piece: folded to its value when it has no leg (the same arithmetic in the same order as a
   * run would do, so the same number), else its steps.
   */
  private piece(
    value: number | undefined,
    program: () => Program,
    sign: Sign,
    moves: Moves,
  ): Analysed {
    if (value !== undefined) return { ...constantPiece(value, this.constants), sign, moves };
    return { program: program(), sign, moves, value: undefined };
  }

  private unary(n: jsep.UnaryExpression): Analysed {
    const arg = this.node(n.argument);
    if (n.operator === "+") return arg;
    if (n.operator !== "-")
      throw new FormulaError(`the operator \`${n.operator}\` is not allowed`, this.near(n));
    return this.piece(
      arg.value === undefined ? undefined : -arg.value,
      () => ({ steps: [...arg.program.steps, Op.Neg, 0], depth: arg.program.depth }),
      times(arg.sign, -1),
      scaled(arg.moves, -1),
    );
  }

  private binary(n: jsep.BinaryExpression): Analysed {
    const op = n.operator;
    if (op !== "+" && op !== "-" && op !== "*" && op !== "/")
      throw new FormulaError(`the operator \`${op}\` is not allowed`, this.near(n));
    const a = this.node(n.left);
    const b = this.node(n.right);
    const [x, y] = [a.value, b.value];
    const both = x !== undefined && y !== undefined;
    switch (op) {
      case "+":
        return this.piece(
          both ? x + y : undefined,
          () => binarySteps(a.program, b.program, Op.Add),
          a.sign === b.sign ? a.sign : a.sign === 0 ? b.sign : b.sign === 0 ? a.sign : "unknown",
          merged(a.moves, b.moves),
        );
      case "-": {
        const minusB = times(b.sign, -1);
        return this.piece(
          both ? x - y : undefined,
          () => binarySteps(a.program, b.program, Op.Sub),
          a.sign === minusB ? a.sign : a.sign === 0 ? minusB : minusB === 0 ? a.sign : "unknown",
          merged(a.moves, scaled(b.moves, -1)),
        );
      }
      case "*":
        return this.piece(
          both ? x * y : undefined,
          () => binarySteps(a.program, b.program, Op.Mul),
          times(a.sign, b.sign),
          merged(scaled(a.moves, b.sign), scaled(b.moves, a.sign)),
        );
      default:
        // d(a/b)/db = −a/b²: a leg in the divisor moves the value against a's sign.
        return this.piece(
          both ? x / y : undefined,
          () => binarySteps(a.program, b.program, Op.Div),
          times(a.sign, b.sign),
          merged(scaled(a.moves, b.sign), scaled(b.moves, times(a.sign, -1))),
        );
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
      return this.piece(
        arg.value === undefined ? undefined : Math.abs(arg.value),
        () => ({ steps: [...arg.program.steps, Op.Abs, 0], depth: arg.program.depth }),
        arg.sign === 0 ? 0 : 1,
        scaled(arg.moves, arg.sign),
      );
    }
    if (args.length < 2)
      throw new FormulaError(`${fn} takes two or more arguments`, positionOf(this.text, fn));
    const signs = new Set(args.map((a) => a.sign));
    const constant = args.every((a) => a.value !== undefined);
    return this.piece(
      constant ? FUNCTIONS[fn](...args.map((a) => a.value as number)) : undefined,
      () => ({
        steps: [
          ...args.flatMap((a) => a.program.steps),
          fn === "min" ? Op.Min : Op.Max,
          args.length,
        ],
        depth: Math.max(...args.map((a, i) => a.program.depth + i)),
      }),
      signs.size === 1 ? (args[0] as Analysed).sign : "unknown",
      // min and max never fall as an argument rises: each argument's moves carry through.
      merged(...args.map((a) => a.moves)),
    );
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
  const compiler = new Compiler(text, legIndex);
  const analysed = compiler.node(parse(text));
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
  const { program } = analysed;
  // One array of [step, argument] pairs, a constant's value written in place of its index: a
  // run reads this array and the legs' prices, nothing else (a definition evaluated at every
  // quote of 1,000 stays in few cache lines).
  const steps = Float64Array.from(program.steps);
  for (let pc = 0; pc < steps.length; pc += 2) {
    const op = steps[pc] as Op;
    if (op === Op.Const || (op >= Op.AddConst && op <= Op.DivConst))
      steps[pc + 1] = compiler.constants[steps[pc + 1] as number] as number;
  }
  if (stack.length < 3 * program.depth) stack = new Float64Array(3 * program.depth);
  const n = legs.length;
  return {
    legs: [...legs],
    directions,
    evaluate(values) {
      const value = runOne(steps, values);
      return Number.isFinite(value) ? value : undefined;
    },
    evaluateThree(prices, out, at = 0, outAt = 0) {
      runThree(steps, prices, at, n, out, outAt);
    },
  };
}

/**
 * The one stack every run uses (runs never nest), as deep as the deepest formula compiled yet
 * needs for three values at a time.
 */
let stack = new Float64Array(96);

/**
 * Runs the steps over one set of leg prices. Each step does the very arithmetic a tree of
 * closures would, in the same order, so the value is the same to the last bit
 * (formula.test.ts checks it against JavaScript's own evaluation of the text).
 */
function runOne(steps: Float64Array, legs: ArrayLike<number>): number {
  let top = -1;
  for (let pc = 0; pc < steps.length; pc += 2) {
    const arg = steps[pc + 1] as number;
    switch ((steps[pc] as number) | 0) {
      case Op.Leg:
        stack[++top] = legs[arg | 0] as number;
        break;
      case Op.Const:
        stack[++top] = arg;
        break;
      case Op.Neg:
        stack[top] = -(stack[top] as number);
        break;
      case Op.Abs:
        stack[top] = Math.abs(stack[top] as number);
        break;
      case Op.Add:
        top--;
        stack[top] = (stack[top] as number) + (stack[top + 1] as number);
        break;
      case Op.Sub:
        top--;
        stack[top] = (stack[top] as number) - (stack[top + 1] as number);
        break;
      case Op.Mul:
        top--;
        stack[top] = (stack[top] as number) * (stack[top + 1] as number);
        break;
      case Op.Div:
        top--;
        stack[top] = (stack[top] as number) / (stack[top + 1] as number);
        break;
      case Op.Min:
      case Op.Max: {
        const min = (steps[pc] as number) === Op.Min;
        const first = top - arg + 1;
        let value = stack[first] as number;
        for (let i = first + 1; i <= top; i++)
          value = min ? Math.min(value, stack[i] as number) : Math.max(value, stack[i] as number);
        top = first;
        stack[top] = value;
        break;
      }
      case Op.AddLeg:
        stack[top] = (stack[top] as number) + (legs[arg | 0] as number);
        break;
      case Op.SubLeg:
        stack[top] = (stack[top] as number) - (legs[arg | 0] as number);
        break;
      case Op.MulLeg:
        stack[top] = (stack[top] as number) * (legs[arg | 0] as number);
        break;
      case Op.DivLeg:
        stack[top] = (stack[top] as number) / (legs[arg | 0] as number);
        break;
      case Op.AddConst:
        stack[top] = (stack[top] as number) + arg;
        break;
      case Op.SubConst:
        stack[top] = (stack[top] as number) - arg;
        break;
      case Op.MulConst:
        stack[top] = (stack[top] as number) * arg;
        break;
      default:
        stack[top] = (stack[top] as number) / arg;
    }
  }
  return stack[0] as number;
}

/**
 * The same steps over three sets of leg prices at once (BUY's, SELL's, mid's, `n` each, one
 * after the other in `legs`): the stack holds three numbers per place, so each step is decoded
 * once for the three.
 */
function runThree(
  steps: Float64Array,
  legs: ArrayLike<number>,
  at: number,
  n: number,
  out: Float64Array,
  outAt: number,
): void {
  const n1 = at + n;
  const n2 = at + 2 * n;
  let top = -3;
  for (let pc = 0; pc < steps.length; pc += 2) {
    const arg = steps[pc + 1] as number;
    switch ((steps[pc] as number) | 0) {
      case Op.Leg:
        top += 3;
        stack[top] = legs[(arg | 0) + at] as number;
        stack[top + 1] = legs[(arg | 0) + n1] as number;
        stack[top + 2] = legs[(arg | 0) + n2] as number;
        break;
      case Op.Const: {
        top += 3;
        const c = arg;
        stack[top] = c;
        stack[top + 1] = c;
        stack[top + 2] = c;
        break;
      }
      case Op.Neg:
        stack[top] = -(stack[top] as number);
        stack[top + 1] = -(stack[top + 1] as number);
        stack[top + 2] = -(stack[top + 2] as number);
        break;
      case Op.Abs:
        stack[top] = Math.abs(stack[top] as number);
        stack[top + 1] = Math.abs(stack[top + 1] as number);
        stack[top + 2] = Math.abs(stack[top + 2] as number);
        break;
      case Op.Add:
        top -= 3;
        stack[top] = (stack[top] as number) + (stack[top + 3] as number);
        stack[top + 1] = (stack[top + 1] as number) + (stack[top + 4] as number);
        stack[top + 2] = (stack[top + 2] as number) + (stack[top + 5] as number);
        break;
      case Op.Sub:
        top -= 3;
        stack[top] = (stack[top] as number) - (stack[top + 3] as number);
        stack[top + 1] = (stack[top + 1] as number) - (stack[top + 4] as number);
        stack[top + 2] = (stack[top + 2] as number) - (stack[top + 5] as number);
        break;
      case Op.Mul:
        top -= 3;
        stack[top] = (stack[top] as number) * (stack[top + 3] as number);
        stack[top + 1] = (stack[top + 1] as number) * (stack[top + 4] as number);
        stack[top + 2] = (stack[top + 2] as number) * (stack[top + 5] as number);
        break;
      case Op.Div:
        top -= 3;
        stack[top] = (stack[top] as number) / (stack[top + 3] as number);
        stack[top + 1] = (stack[top + 1] as number) / (stack[top + 4] as number);
        stack[top + 2] = (stack[top + 2] as number) / (stack[top + 5] as number);
        break;
      case Op.Min:
      case Op.Max: {
        const min = (steps[pc] as number) === Op.Min;
        const first = top - 3 * (arg - 1);
        for (let lane = 0; lane < 3; lane++) {
          let value = stack[first + lane] as number;
          for (let i = first + 3 + lane; i <= top + lane; i += 3)
            value = min ? Math.min(value, stack[i] as number) : Math.max(value, stack[i] as number);
          stack[first + lane] = value;
        }
        top = first;
        break;
      }
      case Op.AddLeg:
        stack[top] = (stack[top] as number) + (legs[(arg | 0) + at] as number);
        stack[top + 1] = (stack[top + 1] as number) + (legs[(arg | 0) + n1] as number);
        stack[top + 2] = (stack[top + 2] as number) + (legs[(arg | 0) + n2] as number);
        break;
      case Op.SubLeg:
        stack[top] = (stack[top] as number) - (legs[(arg | 0) + at] as number);
        stack[top + 1] = (stack[top + 1] as number) - (legs[(arg | 0) + n1] as number);
        stack[top + 2] = (stack[top + 2] as number) - (legs[(arg | 0) + n2] as number);
        break;
      case Op.MulLeg:
        stack[top] = (stack[top] as number) * (legs[(arg | 0) + at] as number);
        stack[top + 1] = (stack[top + 1] as number) * (legs[(arg | 0) + n1] as number);
        stack[top + 2] = (stack[top + 2] as number) * (legs[(arg | 0) + n2] as number);
        break;
      case Op.DivLeg:
        stack[top] = (stack[top] as number) / (legs[(arg | 0) + at] as number);
        stack[top + 1] = (stack[top + 1] as number) / (legs[(arg | 0) + n1] as number);
        stack[top + 2] = (stack[top + 2] as number) / (legs[(arg | 0) + n2] as number);
        break;
      case Op.AddConst: {
        const c = arg;
        stack[top] = (stack[top] as number) + c;
        stack[top + 1] = (stack[top + 1] as number) + c;
        stack[top + 2] = (stack[top + 2] as number) + c;
        break;
      }
      case Op.SubConst: {
        const c = arg;
        stack[top] = (stack[top] as number) - c;
        stack[top + 1] = (stack[top + 1] as number) - c;
        stack[top + 2] = (stack[top + 2] as number) - c;
        break;
      }
      case Op.MulConst: {
        const c = arg;
        stack[top] = (stack[top] as number) * c;
        stack[top + 1] = (stack[top + 1] as number) * c;
        stack[top + 2] = (stack[top + 2] as number) * c;
        break;
      }
      default: {
        const c = arg;
        stack[top] = (stack[top] as number) / c;
        stack[top + 1] = (stack[top + 1] as number) / c;
        stack[top + 2] = (stack[top + 2] as number) / c;
      }
    }
  }
  out[outAt] = stack[0] as number;
  out[outAt + 1] = stack[1] as number;
  out[outAt + 2] = stack[2] as number;
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
