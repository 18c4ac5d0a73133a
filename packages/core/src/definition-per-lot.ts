// One lot of a spread of one's own in rupees (docs/formulas.md, "Net / lot"): what the spread is
// worth on its legs' lots, what opening and closing every traded leg costs, and what is left.
// The built-in parities keep `perLot` (per-lot.ts, with its CME hedge); this is the general case
// for any definition whose legs say how many lots they trade.
import { groupOfExchange, type InstrumentSpec, parseInstrumentKey } from "./catalogue.ts";
import { type CostBreakdown, type CostRates, CRORE, roundPaise, totalCosts } from "./costs.ts";
import type { CmeContractKey } from "./lot.ts";
import type { SpreadLegDefinition } from "./spread-definition.ts";

/** What the per-lot figures need of an instrument: its catalogue entry. */
export type SpecOf = (
  instrument: string,
) => Pick<InstrumentSpec, "exchange" | "currency" | "lotUnits"> | undefined;

export interface DefinitionPerLot {
  /** ₹ per spread point on one lot of the spread (see `definitionUnits`). */
  units: number;
  grossInr: number;
  costsInr: number;
  netInr: number;
  breakdown: CostBreakdown;
}

/**
 * ₹ per spread point for one lot of the spread: the first leg that trades lots and is priced in
 * rupees gives `lotUnits × lots` (a GOLD calendar `g - gn` with one lot a leg: 100, since GOLD is
 * quoted per 10 g and a lot is 1 kg). Undefined when no rupee leg has lots: a ratio or a USD
 * spread has no rupee value per point without a choice the trader makes.
 */
export function definitionUnits(
  legs: readonly SpreadLegDefinition[],
  specOf: SpecOf,
): number | undefined {
  for (const leg of legs) {
    const spec = specOf(leg.instrument);
    if (leg.lots !== undefined && spec?.currency === "INR") return spec.lotUnits * leg.lots;
  }
  return undefined;
}

/**
 * The round trip (one buy and one sell) of every leg that trades lots, at the legs' prices now:
 * MCX legs as core's `roundTripCosts` costs an MCX lot (turnover at the leg's price, charges per
 * crore, CTT and stamp duty once each), US futures at the rates' commission per contract per side
 * (its root's: GC@next is GC; a root without a rate, BZ say, at the full-size GC rate), converted
 * at `usdinr`. FX, spot and index legs convert, they are not traded: they cost nothing. Lines are
 * unrounded. Undefined when a traded leg has no price or no catalogue entry.
 */
export function definitionCosts(
  legs: readonly SpreadLegDefinition[],
  legPrices: Readonly<Record<string, number>>,
  usdinr: number,
  rates: CostRates,
  specOf: SpecOf,
): CostBreakdown | undefined {
  const b: CostBreakdown = {
    mcxTurnover: 0,
    brokerage: 0,
    exchange: 0,
    sebi: 0,
    ctt: 0,
    stampDuty: 0,
    gst: 0,
    cme: 0,
    cmeUsd: 0,
  };
  for (const leg of legs) {
    if (leg.lots === undefined) continue;
    const spec = specOf(leg.instrument);
    const price = legPrices[leg.name];
    if (!spec || price === undefined || !Number.isFinite(price)) return undefined;
    if (spec.exchange === "MCX") {
      const side = Math.abs(price * spec.lotUnits * leg.lots);
      b.mcxTurnover += 2 * side;
      b.brokerage += 2 * rates.mcxBrokeragePerOrder;
      b.ctt += side * rates.cttSellRate;
      b.stampDuty += side * rates.stampDutyBuyRate;
    } else if (groupOfExchange(spec.exchange) === "cme") {
      const perSide =
        rates.cmePerContractPerSideUsd[parseInstrumentKey(leg.instrument).root as CmeContractKey] ??
        rates.cmePerContractPerSideUsd.GC;
      b.cmeUsd += 2 * leg.lots * perSide;
    }
  }
  if (b.cmeUsd > 0 && !Number.isFinite(usdinr)) return undefined;
  b.exchange = (b.mcxTurnover * rates.mcxExchangePerCrore) / CRORE;
  b.sebi = (b.mcxTurnover * rates.sebiPerCrore) / CRORE;
  b.gst = (b.brokerage + b.exchange + b.sebi) * rates.gstRate;
  b.cme = b.cmeUsd > 0 ? b.cmeUsd * usdinr : 0;
  return b;
}

/**
 * One lot of the spread now: its value on the lot (spread × units), the round trip's costs at
 * the legs' prices, and the net. Undefined when the definition has no rupee units, a number is
 * not finite, or a traded leg has no price.
 */
export function definitionPerLot(
  definition: { legs: readonly SpreadLegDefinition[] },
  value: { spread: number; legs: Readonly<Record<string, { price: number }>> },
  usdinr: number,
  rates: CostRates,
  specOf: SpecOf,
): DefinitionPerLot | undefined {
  const units = definitionUnits(definition.legs, specOf);
  if (units === undefined || !Number.isFinite(value.spread)) return undefined;
  const prices: Record<string, number> = {};
  for (const [name, leg] of Object.entries(value.legs)) prices[name] = leg.price;
  const costs = definitionCosts(definition.legs, prices, usdinr, rates, specOf);
  if (!costs) return undefined;
  const grossInr = roundPaise(value.spread * units);
  const costsInr = roundPaise(totalCosts(costs));
  return {
    units,
    grossInr,
    costsInr,
    netInr: roundPaise(grossInr - costsInr),
    breakdown: Object.fromEntries(
      Object.entries(costs).map(([line, amount]) => [line, roundPaise(amount)]),
    ) as unknown as CostBreakdown,
  };
}
