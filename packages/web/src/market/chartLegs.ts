import { instrument, isSpreadSymbol, parseSpreadSymbol } from "@spreadwatch/core";

const EXTRA_LEGS: Readonly<Record<string, readonly string[]>> = {
  XAU_SPOT: ["GC", "XAUUSD"],
  XAG_SPOT: ["SI", "XAGUSD"],
  NIFTY: ["GIFTNIFTY", "NIFTY50"],
};

/**
 * The quote keys a chart symbol is computed from, whose rolls the chart marks; a definition's
 * are its legs' instruments (`definitionLegs`, from the definitions list).
 */
export function chartLegKeys(
  symbol: string,
  definitionLegs?: readonly { instrument: string }[],
): readonly string[] {
  if (definitionLegs) return definitionLegs.map((leg) => leg.instrument);
  if (!isSpreadSymbol(symbol)) return EXTRA_LEGS[symbol] ?? [];
  const inst = instrument(parseSpreadSymbol(symbol).id);
  return [inst.cmeKey, inst.mcxKey];
}
