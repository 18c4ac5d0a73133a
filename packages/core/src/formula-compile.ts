// Compiling a parsed formula (docs/formulas.md): each node is checked against the short list of
// what may appear, each leg's direction decided, and the whole turned into the flat steps
// formula-run.ts runs.
import type jsep from "jsep";
import {
  deepestNesting,
  FORMULA_CONSTANTS,
  FormulaError,
  FUNCTIONS,
  type FunctionName,
  findIdentifier,
  isLegName,
  MAX_FORMULA_DEPTH,
  MAX_FORMULA_LENGTH,
  MAX_LEGS,
  type Node,
  parseFormula,
  positionOf,
} from "./formula-parse.ts";
import {
  type CompiledFormula,
  type Direction,
  Op,
  reserveStack,
  runOne,
  runThree,
} from "./formula-run.ts";

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
  const analysed = compiler.node(parseFormula(text));
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
  reserveStack(program.depth);
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
