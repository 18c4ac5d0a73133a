// Running a compiled formula (docs/formulas.md): the steps of a small stack machine over the
// legs' numbers, one set of prices or three at once (BUY, SELL and mid), and a side's value from
// the legs' books.

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

/**
 * The steps a formula compiles to: pairs of [operation, argument] run over a stack of numbers.
 * A step whose right operand is a leg or a constant reads it directly (`a - b` is two steps).
 */
export enum Op {
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

/**
 * The one stack every run uses (runs never nest), as deep as the deepest formula compiled yet
 * needs for three values at a time.
 */
let stack = new Float64Array(96);

/** Makes the stack deep enough for three values at a time of a program this deep. */
export function reserveStack(depth: number): void {
  if (stack.length < 3 * depth) stack = new Float64Array(3 * depth);
}

/**
 * Runs the steps over one set of leg prices. Each step does the very arithmetic a tree of
 * closures would, in the same order, so the value is the same to the last bit
 * (formula.test.ts checks it against JavaScript's own evaluation of the text).
 */
export function runOne(steps: Float64Array, legs: ArrayLike<number>): number {
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
export function runThree(
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
