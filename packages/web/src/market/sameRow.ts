import type { Prices, SpreadSymbol } from "@spreadwatch/core";
import type { FreshnessContext } from "./freshness.ts";
import { sameInputEntries, spreadInputs } from "./inputMarks.ts";
import type { PriceRow } from "./priceRows.ts";

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
  const { prices: pricesBefore, ...restBefore } = before;
  const { prices: pricesAfter, ...restAfter } = after;
  return (
    shallowEqual(restBefore, restAfter) &&
    sameInputEntries(
      spreadInputs(before.symbol, pricesBefore),
      spreadInputs(after.symbol, pricesAfter),
    )
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
