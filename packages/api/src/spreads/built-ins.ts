import {
  compileFormula,
  type Duties,
  INSTRUMENTS,
  paritySpread,
  type SpreadDefinition,
} from "@spreadwatch/core";

/**
 * The factor of each built-in parity as its formula writes it: the very double core's
 * INSTRUMENTS multiply by (10 / TROY_OUNCE_GRAMS for gold), so the definition gives the
 * built-in spread's numbers to the last digit (core spread-template.test.ts).
 */
const FACTOR_TEXT: Readonly<Record<string, string>> = {
  GC: "10 / TROY_OUNCE_GRAMS",
  SI: "1000 / TROY_OUNCE_GRAMS",
  HG: "2.20462262185",
  NG: "1",
  CL: "1",
};

/** Ids of the built-ins: negative, so they never meet a stored definition's id. */
const MID_ONLY = [
  { id: -6, symbol: "XAU_SPOT", name: "Gold Spot", legs: ["GC", "XAUUSD"] },
  { id: -7, symbol: "XAG_SPOT", name: "Silver Spot", legs: ["SI", "XAGUSD"] },
  { id: -8, symbol: "NIFTY", name: "NIFTY Index", legs: ["GIFTNIFTY", "NIFTY50"] },
] as const;

/** The built-ins with no executable sides: a mid minus a mid, charted and alerted as themselves. */
export const MID_ONLY_SYMBOLS: ReadonlySet<string> = new Set(MID_ONLY.map((m) => m.symbol));

/**
 * The thirteen built-in spreads as definitions, published to everyone: the five parities (GC …
 * CL, whose executable symbols are today's GC_BUY … CL_SELL) with the configured duties, and the
 * three mid-only spreads of the chart (future or GIFT NIFTY minus spot or NIFTY 50).
 */
export function builtInDefinitions(duties: Duties): SpreadDefinition[] {
  const parities = INSTRUMENTS.map((instrument, index): SpreadDefinition => {
    const factor = FACTOR_TEXT[instrument.id];
    // The formula must multiply by exactly the built-in's factor, or the numbers would drift.
    if (
      factor === undefined ||
      compileFormula(`x * (${factor})`, ["x"]).evaluate([1]) !== instrument.factor
    )
      throw new Error(`the formula factor of ${instrument.id} is not core's`);
    const template = paritySpread(
      instrument.mcxKey,
      instrument.cmeKey,
      factor,
      duties[instrument.id],
    );
    return {
      ...template,
      name: instrument.name,
      id: -(index + 1),
      symbol: instrument.id,
      shared: true,
      builtin: true,
      ownerId: null,
      createdAt: 0,
      updatedAt: 0,
    };
  });
  const midOnly = MID_ONLY.map(
    ({ id, symbol, name, legs: [future, spot] }): SpreadDefinition => ({
      id,
      symbol,
      name,
      legs: [
        { name: "f", instrument: future },
        { name: "s", instrument: spot },
      ],
      formula: "f - s",
      shared: true,
      builtin: true,
      ownerId: null,
      createdAt: 0,
      updatedAt: 0,
    }),
  );
  return [...parities, ...midOnly];
}
