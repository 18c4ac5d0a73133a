// A spread of one's own (docs/formulas.md): named legs on catalogue instruments and a formula over
// them. This file checks a definition and evaluates it against live books; the server and any
// script that imports @spreadwatch/core give the same numbers.
import {
  type CompiledFormula,
  compileFormula,
  FormulaError,
  type LegBook,
  MAX_LEGS,
} from "./formula.ts";

export const MAX_SPREAD_NAME_LENGTH = 60;
export const MAX_SPREADS_PER_USER = 50;
export const MAX_SPREADS = 1000;
/** A leg's quantity in lots, for per-lot figures: a whole number from 1 to this. */
export const MAX_LEG_LOTS = 1000;

export interface SpreadLegDefinition {
  /** The name the formula uses: g, gm, fx. */
  name: string;
  /** A catalogue key: GOLD, GOLD@next, USDINR. */
  instrument: string;
  lots?: number | undefined;
}

export interface SpreadDefinitionInput {
  name: string;
  legs: readonly SpreadLegDefinition[];
  formula: string;
}

/** A definition that passed every check, with its formula compiled. */
export interface CheckedDefinition extends SpreadDefinitionInput {
  compiled: CompiledFormula;
}

/**
 * Checks a definition: its name, its legs (each on a known instrument, lots a whole number), and
 * its formula over the legs' names. Throws FormulaError naming what is wrong (and where, in the
 * formula); `knows(key)` says whether an instrument is in the catalogue.
 */
export function checkDefinition(
  input: SpreadDefinitionInput,
  knows: (instrument: string) => boolean,
): CheckedDefinition {
  const name = input.name.trim();
  if (name === "") throw new FormulaError("name: must not be empty");
  if (name.length > MAX_SPREAD_NAME_LENGTH)
    throw new FormulaError(`name: at most ${MAX_SPREAD_NAME_LENGTH} characters`);
  if (input.legs.length === 0) throw new FormulaError("legs: a spread has at least one leg");
  if (input.legs.length > MAX_LEGS)
    throw new FormulaError(`legs: a spread has at most ${MAX_LEGS} legs`);
  for (const [index, leg] of input.legs.entries()) {
    if (!knows(leg.instrument))
      throw new FormulaError(`legs.${index}.instrument: ${leg.instrument} is not an instrument`);
    const lots = leg.lots;
    if (lots !== undefined && (!Number.isInteger(lots) || lots < 1 || lots > MAX_LEG_LOTS))
      throw new FormulaError(`legs.${index}.lots: a whole number from 1 to ${MAX_LEG_LOTS}`);
  }
  const compiled = compileFormula(
    input.formula,
    input.legs.map((leg) => leg.name),
  );
  return { name, legs: input.legs, formula: input.formula, compiled };
}

export interface LegValue {
  price: number;
  side: "bid" | "ask" | "mid";
  instrument: string;
}

/** One side of a definition now: BUY or SELL, its mid, and the leg prices each was built from. */
export interface DefinitionValue {
  spread: number;
  mid: number | undefined;
  legs: Record<string, LegValue>;
}

/**
 * BUY and SELL of a definition from its legs' books (`bookOf(instrument)`, undefined when the
 * instrument has no price), with the mid, in one run of the formula (`evaluateThree`): the same
 * numbers as `evaluateSide` gives each. A side is undefined when a leg it needs has no price, a
 * book is crossed, or the formula has no value there (÷ 0).
 */
export function evaluateDefinition(
  definition: Pick<CheckedDefinition, "legs" | "compiled">,
  bookOf: (instrument: string) => LegBook | undefined,
): { BUY: DefinitionValue | undefined; SELL: DefinitionValue | undefined } {
  const { compiled, legs } = definition;
  const n = legs.length;
  // BUY's leg prices, then SELL's, then mid's (evaluateThree's order).
  const prices = new Float64Array(3 * n);
  let buyOk = true;
  let sellOk = true;
  let midOk = true;
  for (let i = 0; i < n; i++) {
    const leg = legs[i] as SpreadLegDefinition;
    const book = bookOf(leg.instrument);
    // A crossed book (bid above ask) cannot be traded as shown: no value, as evaluateSide.
    if (!book || (book.bid !== undefined && book.ask !== undefined && book.bid > book.ask))
      return { BUY: undefined, SELL: undefined };
    const up = compiled.directions[leg.name] === 1;
    const buy = up ? book.ask : book.bid;
    const sell = up ? book.bid : book.ask;
    const mid =
      book.bid !== undefined && book.ask !== undefined ? (book.bid + book.ask) / 2 : undefined;
    if (buy === undefined || !Number.isFinite(buy)) buyOk = false;
    else prices[i] = buy;
    if (sell === undefined || !Number.isFinite(sell)) sellOk = false;
    else prices[n + i] = sell;
    if (mid === undefined || !Number.isFinite(mid)) midOk = false;
    else prices[2 * n + i] = mid;
  }
  const out = new Float64Array(3);
  compiled.evaluateThree(prices, out);
  const value = (ok: boolean, raw: number) => (ok && Number.isFinite(raw) ? raw : undefined);
  const mid = value(midOk, out[2] as number);
  const side = (which: 0 | 1): DefinitionValue | undefined => {
    const spread = value(which === 0 ? buyOk : sellOk, out[which] as number);
    if (spread === undefined) return undefined;
    const buying = which === 0;
    const values: Record<string, LegValue> = {};
    for (let i = 0; i < n; i++) {
      const leg = legs[i] as SpreadLegDefinition;
      values[leg.name] = {
        price: prices[which * n + i] as number,
        side: (compiled.directions[leg.name] === 1) === buying ? "ask" : "bid",
        instrument: leg.instrument,
      };
    }
    return { spread, mid, legs: values };
  };
  return { BUY: side(0), SELL: side(1) };
}

/** A stored definition as the API lists it (docs/formulas.md). */
export interface SpreadDefinition extends SpreadDefinitionInput {
  id: number;
  /** GC for a built-in, SP7 for a user's: its executable symbols are SP7_BUY and SP7_SELL. */
  symbol: string;
  shared: boolean;
  builtin: boolean;
  /** Who made it; null for a built-in. */
  ownerId: number | null;
  createdAt: number;
  updatedAt: number;
}

const USER_SYMBOL = /^SP([1-9]\d{0,8})$/;

/** The symbol the server gives definition `id`: SP7. */
export function userSpreadSymbol(id: number): string {
  return `SP${id}`;
}

/** SP7 → 7; undefined for any other text (a built-in's symbol included). */
export function userSpreadId(symbol: string): number | undefined {
  const match = USER_SYMBOL.exec(symbol);
  return match ? Number(match[1]) : undefined;
}

/** SP7_BUY → { symbol: SP7, side: BUY }; GC_SELL → { symbol: GC, side: SELL }. */
export function parseExecutableSymbol(
  executable: string,
): { symbol: string; side: "BUY" | "SELL" } | undefined {
  const match = /^([A-Z][A-Z0-9]*)_(BUY|SELL)$/.exec(executable);
  return match ? { symbol: match[1] as string, side: match[2] as "BUY" | "SELL" } : undefined;
}
