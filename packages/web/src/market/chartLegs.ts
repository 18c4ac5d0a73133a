import { type ChartSymbol, instrument, isSpreadSymbol, parseSpreadSymbol } from "@spreadwatch/core";

const EXTRA_LEGS: Readonly<Record<string, readonly string[]>> = {
  XAU_SPOT: ["GC", "XAUUSD"],
  XAG_SPOT: ["SI", "XAGUSD"],
  NIFTY: ["GIFTNIFTY", "NIFTY50"],
};

/** The quote keys a chart symbol is computed from, whose rolls the chart marks. */
export function chartLegKeys(symbol: ChartSymbol): readonly string[] {
  if (!isSpreadSymbol(symbol)) return EXTRA_LEGS[symbol] ?? [];
  const inst = instrument(parseSpreadSymbol(symbol).id);
  return [inst.cmeKey, inst.mcxKey];
}
