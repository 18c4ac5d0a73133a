// The round-trip costs of one lot of a position's spread at its mark (docs/http-api.md "Positions
// API (paper)"): a built-in parity as its row's perLot prices it, a definition leg by leg.
import {
  type CostBreakdown,
  type CostRates,
  definitionCosts,
  type InstrumentSpec,
  perLot,
  roundPaise,
  type SpreadSymbol,
  totalCosts,
} from "@spreadwatch/core";
import type { RegisteredSpread } from "../spreads/registry.ts";

export interface LotCosts {
  perLotInr: number;
  breakdown: CostBreakdown;
}

export function costsAt(
  spread: RegisteredSpread | undefined,
  markSymbol: string,
  value: number,
  legPrices: Readonly<Record<string, number>>,
  rates: CostRates,
  specOf: (key: string) => InstrumentSpec | undefined,
  /** The hub's USDINR, for a definition whose legs do not include it. */
  hubUsdinr: number | undefined,
): LotCosts | undefined {
  if (!spread) return undefined;
  if (spread.builtin) {
    const usdinr = legPrices.fx ?? Number.NaN;
    const mcx = legPrices.m;
    if (mcx === undefined) return undefined;
    const lot = perLot(markSymbol as SpreadSymbol, { spread: value, mcx }, usdinr, {}, rates);
    return lot && { perLotInr: lot.costsInr, breakdown: lot.breakdown };
  }
  const fx = spread.legs.find((leg) => leg.instrument === "USDINR");
  const rate = fx ? legPrices[fx.name] : undefined;
  const breakdown = definitionCosts(
    spread.legs,
    legPrices,
    rate ?? hubUsdinr ?? Number.NaN,
    rates,
    specOf,
  );
  return (
    breakdown && {
      perLotInr: roundPaise(totalCosts(breakdown)),
      breakdown: Object.fromEntries(
        Object.entries(breakdown).map(([line, v]) => [line, roundPaise(v)]),
      ) as unknown as CostBreakdown,
    }
  );
}
