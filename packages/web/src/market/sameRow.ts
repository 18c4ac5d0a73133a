import type { Prices, SpreadSymbol } from "@spreadwatch/core";
import type { FreshnessContext } from "./freshness.ts";
import type { PriceRow } from "./priceRows.ts";
import { spreadLegs } from "./spreadInputs.ts";

/**
 * The dashboard's rows are memoised on these tests (docs/architecture.md, "The dashboard's
 * renders"): a stream message touches a few instruments, and the other rows need not render.
 */

/** Whether two objects have the same keys holding identical (===) values: React.memo's own test. */
export function shallowEqual(a: object, b: object): boolean {
  const keysA = Object.keys(a);
  if (keysA.length !== Object.keys(b).length) return false;
  const valuesB = b as Record<string, unknown>;
  return keysA.every(
    (key) => Object.hasOwn(b, key) && (a as Record<string, unknown>)[key] === valuesB[key],
  );
}

/**
 * A Spread table row shows the same: every prop identical but the market's `prices`, of which
 * only its own legs' quotes (CME, MCX, USDINR) count.
 */
export function sameSpreadRow<P extends { symbol: SpreadSymbol; prices: Prices }>(
  before: P,
  after: P,
): boolean {
  const { prices: a, ...restBefore } = before;
  const { prices: b, ...restAfter } = after;
  if (!shallowEqual(restBefore, restAfter)) return false;
  // The same symbol (checked above), so the same legs: the stream keeps an untouched quote's
  // entry as it was (market/applyDelta.ts), so an unchanged quote is the same object.
  const { inst } = spreadLegs(after.symbol);
  return (
    a.cme[inst.cmeKey] === b.cme[inst.cmeKey] &&
    a.mcx[inst.mcxKey] === b.mcx[inst.mcxKey] &&
    a.fx.USDINR === b.fx.USDINR
  );
}

interface PriceRowProps {
  id: string | undefined;
  row: PriceRow;
  freshness: FreshnessContext;
  hidden: boolean | undefined;
}

/** A Prices row shows the same: its fields and quote, the time and its folding unchanged. */
export function samePriceRow(before: PriceRowProps, after: PriceRowProps): boolean {
  return (
    before.id === after.id &&
    before.freshness === after.freshness &&
    before.hidden === after.hidden &&
    shallowEqual(before.row, after.row)
  );
}
