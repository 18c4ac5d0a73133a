// Templates for the spreads desks trade most (docs/formulas.md, "Templates"): each turns a few
// choices into a definition's legs and formula, so nobody types the common ones.
import { monthKey, parseInstrumentKey } from "./catalogue.ts";
import type { MonthSelector } from "./contract-calendar.ts";
import type { SpreadDefinitionInput } from "./spread-definition.ts";

const MONTH_WORD: Record<MonthSelector, string> = { near: "near", next: "next", far: "far" };

/** One future's two months: `a − b`, e.g. GOLD near against GOLD next. */
export function calendarSpread(
  root: string,
  first: MonthSelector,
  second: MonthSelector,
): SpreadDefinitionInput {
  return {
    name: `${root} ${MONTH_WORD[first]}/${MONTH_WORD[second]} calendar`,
    legs: [
      { name: "a", instrument: monthKey(root, first) },
      { name: "b", instrument: monthKey(root, second) },
    ],
    formula: "a - b",
  };
}

/**
 * An MCX future against its CME counterpart: `m − c × factor × fx × (1 + duty)`, the built-in
 * spreads' formula (core/src/spread.ts `parity`), written in the same order of operations so it
 * gives the same numbers to the last digit.
 */
export function paritySpread(
  mcx: string,
  cme: string,
  factor: string,
  duty: number,
  usdinr = "USDINR",
): SpreadDefinitionInput {
  return {
    name: `${mcx} – ${cme} parity`,
    legs: [
      { name: "m", instrument: mcx },
      { name: "c", instrument: cme },
      { name: "fx", instrument: usdinr },
    ],
    formula: `m - c * (${factor}) * fx * (1 + ${duty})`,
  };
}

/** `a ÷ b`, e.g. gold/silver. */
export function ratioSpread(a: string, b: string): SpreadDefinitionInput {
  return {
    name: `${a}/${b} ratio`,
    legs: [
      { name: "a", instrument: a },
      { name: "b", instrument: b },
    ],
    formula: "a / b",
  };
}

/** A mini against its big contract, quoted in the same unit: `mini − big`. */
export function miniSpread(mini: string, big: string): SpreadDefinitionInput {
  return {
    name: `${mini} – ${big}`,
    legs: [
      { name: "mini", instrument: mini },
      { name: "big", instrument: big },
    ],
    formula: "mini - big",
  };
}

/** A future against spot in the same unit: `f − s` (the basis). */
export function basisSpread(future: string, spot: string): SpreadDefinitionInput {
  const { root, month } = parseInstrumentKey(future);
  return {
    name: `${root}${month === "near" ? "" : ` ${month}`} – ${spot} basis`,
    legs: [
      { name: "f", instrument: future },
      { name: "s", instrument: spot },
    ],
    formula: "f - s",
  };
}
