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

/** What one order side costs on an Indian exchange beyond brokerage: its own rates. */
interface IndianExchangeRates {
  /** Transaction charge, ₹ per crore of turnover, each side. */
  exchangePerCrore: number;
  /** Sell-side tax (CTT on MCX, STT on NFO, none on CDS) and which line it is. */
  sellTax: number;
  sellTaxLine: "ctt" | "stt";
  stampBuy: number;
}

/** Each Indian exchange's charges, read from the rates at call time (an admin may change them). */
const INDIAN_RATES: Readonly<Record<string, (rates: CostRates) => IndianExchangeRates>> = {
  MCX: (r) => ({
    exchangePerCrore: r.mcxExchangePerCrore,
    sellTax: r.cttSellRate,
    sellTaxLine: "ctt",
    stampBuy: r.stampDutyBuyRate,
  }),
  NFO: (r) => ({
    exchangePerCrore: r.nfoExchangePerCrore,
    sellTax: r.sttFuturesSellRate,
    sellTaxLine: "stt",
    stampBuy: r.stampDutyBuyRate,
  }),
  CDS: (r) => ({
    exchangePerCrore: r.cdsExchangePerCrore,
    sellTax: 0,
    sellTaxLine: "stt",
    stampBuy: r.cdsStampDutyBuyRate,
  }),
};

/**
 * The round trip of every leg that names its lots: each Indian future (MCX, NFO, CDS) one buy and
 * one sell at its price with its exchange's charges and taxes, each CME Group leg its per-contract
 * fees both ways. Legs without lots (a calendar written `b - a`) cost nothing here. Undefined when
 * a traded leg has no spec or price, or a CME leg needs USDINR that is not known.
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
    const indian = INDIAN_RATES[spec.exchange]?.(rates);
    if (indian) {
      const side = Math.abs(price * spec.lotUnits * leg.lots);
      if (spec.exchange === "MCX") b.mcxTurnover += 2 * side;
      b.brokerage += 2 * rates.mcxBrokeragePerOrder;
      b.exchange += (2 * side * indian.exchangePerCrore) / CRORE;
      b.sebi += (2 * side * rates.sebiPerCrore) / CRORE;
      if (indian.sellTax > 0)
        b[indian.sellTaxLine] = (b[indian.sellTaxLine] ?? 0) + side * indian.sellTax;
      b.stampDuty += side * indian.stampBuy;
    } else if (groupOfExchange(spec.exchange) === "cme") {
      const perSide =
        rates.cmePerContractPerSideUsd[parseInstrumentKey(leg.instrument).root as CmeContractKey] ??
        rates.cmePerContractPerSideUsd.GC;
      b.cmeUsd += 2 * leg.lots * perSide;
    }
  }
  if (b.cmeUsd > 0 && !Number.isFinite(usdinr)) return undefined;
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
