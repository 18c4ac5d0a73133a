/**
 * The pure half of spread-formula.ts: a definition's BUY, SELL and mid after every quote of a
 * replay, exactly as the server evaluates it (core's checkDefinition and evaluateDefinition).
 */
import {
  applyQuote,
  bookIn,
  type CheckedDefinition,
  checkDefinition,
  emptyPrices,
  evaluateDefinition,
  formatIstTimestamp,
  formatNumber,
  type Quote,
  type SpreadLegDefinition,
} from "@spreadwatch/core";

export interface FormulaPoint {
  ts: number;
  buy: number | undefined;
  sell: number | undefined;
  mid: number | undefined;
}

/** `g=GOLD` → a leg; throws on anything else. */
export function parseLeg(text: string): SpreadLegDefinition {
  const match = /^([^=]+)=(.+)$/.exec(text);
  if (!match) throw new Error(`leg "${text}" is not name=INSTRUMENT (e.g. g=GOLD)`);
  return { name: match[1] as string, instrument: match[2] as string };
}

/** The definition of a formula over legs, checked as the server checks one. */
export function definitionOf(formula: string, legs: SpreadLegDefinition[]): CheckedDefinition {
  return checkDefinition({ name: "replay", legs, formula }, () => true);
}

/** One point per quote that changed the definition's BUY, SELL or mid. */
export function replayFormula(
  quotes: readonly Quote[],
  definition: CheckedDefinition,
): FormulaPoint[] {
  const prices = emptyPrices();
  const points: FormulaPoint[] = [];
  const legKeys = new Set(definition.legs.map((leg) => leg.instrument));
  for (const quote of quotes) {
    if (!applyQuote(prices, quote) || !legKeys.has(quote.key)) continue;
    const { BUY, SELL } = evaluateDefinition(definition, (key) => bookIn(prices, key));
    const point = { ts: quote.ts, buy: BUY?.spread, sell: SELL?.spread, mid: BUY?.mid };
    const last = points.at(-1);
    if (last && last.buy === point.buy && last.sell === point.sell && last.mid === point.mid)
      continue;
    points.push(point);
  }
  return points;
}

/** IST time, then BUY / SELL / mid with `decimals` places ("—" where there is no value). */
export function formatPoints(points: readonly FormulaPoint[], decimals: number): string[] {
  return points.map(
    (p) =>
      `${formatIstTimestamp(p.ts)}  BUY ${formatNumber(p.buy, decimals)}  SELL ${formatNumber(p.sell, decimals)}  mid ${formatNumber(p.mid, decimals)}`,
  );
}
