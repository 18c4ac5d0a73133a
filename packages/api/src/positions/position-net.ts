// Net ₹ of a watched position at an exit value, and the round-trip costs per lot it is judged with
// (the figures the Positions tab shows: docs/http-api.md "Positions API (paper)").
import {
  type CostRates,
  DEFAULT_LOTS,
  defaultCostRates,
  definitionCosts,
  hedgeFor,
  type InstrumentSpec,
  markPosition,
  markSymbolOf,
  mcxLot,
  type Prices,
  parseSpreadSymbol,
  roundPaise,
  roundTripCosts,
  type SpreadSymbol,
  totalCosts,
} from "@spreadwatch/core";
import { isBuiltIn } from "../alerts/watched-symbols.ts";
import type { DefinitionEntry, LiveEntry } from "../market/hub.ts";
import type { SpreadRegistry } from "../spreads/registry.ts";
import type { WatchedPosition } from "./position-alert-source.ts";

/**
 * Round-trip costs of one lot of `symbol`'s spread at its current entry, in ₹ before rounding to
 * paise (roundPaise of it is the figure the Positions tab shows); undefined when they cannot be
 * told (then the position is not judged: a net without its costs would fire early).
 */
export type CostsPerLot = (
  symbol: string,
  entry: LiveEntry,
  prices: Readonly<Prices>,
) => number | undefined;

/**
 * The costs the Positions tab shows (costs.ts's costsAt, before its rounding, which takes ~10 µs
 * a call in decimal strings and would be paid for every touched symbol at every quote): a
 * built-in parity's standard MCX lot and its CME hedge at the entry's MCX price, as perLot; a
 * definition's legs at their prices now (a definition without lots on its legs costs nothing).
 * `rates` is read at each call: an admin may change them.
 */
export function liveCostsPerLot(
  spreads: Pick<SpreadRegistry, "executable"> | undefined,
  specOf: (key: string) => InstrumentSpec | undefined,
  rates: () => CostRates = defaultCostRates,
): CostsPerLot {
  return (symbol, entry, prices) => {
    if (isBuiltIn(symbol)) {
      if (!("mcx" in entry)) return undefined;
      const lot = mcxLot(DEFAULT_LOTS[parseSpreadSymbol(symbol as SpreadSymbol).id]);
      if (!lot || !Number.isFinite(entry.mcx) || !Number.isFinite(entry.usdinr)) return undefined;
      const { contract, contracts } = hedgeFor(lot);
      return totalCosts(
        roundTripCosts(entry.mcx, lot.units, contract, contracts, entry.usdinr, rates()),
      );
    }
    const spread = spreads?.executable(symbol)?.spread;
    const legs = (entry as DefinitionEntry).legs;
    if (!spread || !legs) return undefined;
    const legPrices: Record<string, number> = {};
    for (const name in legs) legPrices[name] = (legs[name] as { price: number }).price;
    // As costsAt: the definition's own USDINR leg when it has one, else the hub's.
    const fx = spread.legs.find((leg) => leg.instrument === "USDINR");
    const usdinr = (fx && legPrices[fx.name]) ?? prices.fx.USDINR?.price ?? Number.NaN;
    const costs = definitionCosts(spread.legs, legPrices, usdinr, rates(), specOf);
    return costs && totalCosts(costs);
  };
}

/** The built-in parities' costs only (tests, and a server with no definitions). */
export const builtInCostsPerLot: CostsPerLot = liveCostsPerLot(undefined, () => undefined);

/** The exit symbol of a position: a BUY is valued at the spread's SELL, and the reverse. */
export const exitSymbolOf = markSymbolOf;

/**
 * Net ₹ (total) as core's markPosition gives it (what the Positions tab shows): gross to paise
 * less every lot's costs to paise. The update loop compares a plain float first and asks this
 * only within a paisa or two of a level, where the roundings could disagree.
 */
export function netInr(position: WatchedPosition, mark: number, costsPerLot: number): number {
  const marked = markPosition(
    { ...position, openedAt: 0 },
    { mark, costsPerLotInr: roundPaise(costsPerLot), now: 0 },
  );
  return marked.netInr ?? Number.NaN;
}
