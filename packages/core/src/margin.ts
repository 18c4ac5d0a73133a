// The margin a spread position blocks, from configured rates (docs/user-guide.md, "Positions
// (paper)"): MCX legs as a share of the contract's value, US futures as an initial margin per
// contract. It is the sum of the legs, with no spread benefit: a broker's own figure (Kite's basket
// margins, which the api asks when connected) is what shows the benefit of a calendar.
import { groupOfExchange, parseInstrumentKey } from "./catalogue.ts";
import { roundPaise } from "./costs.ts";
import type { SpecOf } from "./definition-per-lot.ts";

export interface MarginRates {
  /** MCX margin (SPAN + ELM) as a fraction of the contract value, per root; `default` otherwise. */
  mcxShare: Record<string, number>;
  /** CME/COMEX/NYMEX initial margin per contract, USD, per root; a root without one uses `mcxShare.default` of its value. */
  usInitialUsd: Record<string, number>;
}

/**
 * Placeholders of the right order, NOT a broker's figures: exchanges change margins daily with
 * volatility, so an operator sets MARGIN_* (docs/operations.md) from their broker. Orders of
 * magnitude as seen in 2025–2026: MCX bullion and base metals needed roughly a tenth of the
 * contract value, energy roughly a third in volatile weeks; CME initial margins of a few thousand
 * to ~$20,000 a full-size contract, a tenth of that for the micros.
 */
export function defaultMarginRates(): MarginRates {
  return {
    mcxShare: {
      default: 0.1,
      SILVER: 0.12,
      SILVERM: 0.12,
      SILVERMIC: 0.12,
      CRUDEOIL: 0.3,
      CRUDEOILM: 0.3,
      NATURALGAS: 0.3,
      NATGASMINI: 0.3,
    },
    usInitialUsd: {
      GC: 16_500,
      MGC: 1_650,
      SI: 17_000,
      SIL: 3_400,
      HG: 7_000,
      MHG: 700,
      CL: 6_000,
      MCL: 600,
      BZ: 6_000,
      NG: 4_500,
      QG: 1_150,
    },
  };
}

export interface MarginLeg {
  /** The leg's name in the spread (g, c, fx). */
  name: string;
  instrument: string;
  /** Lots the leg trades; a leg without lots (a conversion such as USDINR) blocks nothing. */
  lots?: number | undefined;
  /** The leg's price now, in its own currency. */
  price: number;
}

export interface ConfiguredMargin {
  inr: number;
  lines: { leg: string; inr: number }[];
}

/**
 * The margin of one spread lot (the legs' lots) from configured rates, in ₹; multiply by the
 * position's lots. Undefined when a traded leg has no price or no catalogue entry, or USD legs
 * need a USDINR that is missing.
 */
export function configuredMargin(
  legs: readonly MarginLeg[],
  usdinr: number,
  rates: MarginRates,
  specOf: SpecOf,
): ConfiguredMargin | undefined {
  const lines: ConfiguredMargin["lines"] = [];
  for (const leg of legs) {
    if (leg.lots === undefined) continue;
    const spec = specOf(leg.instrument);
    if (!spec || !Number.isFinite(leg.price)) return undefined;
    const root = parseInstrumentKey(leg.instrument).root;
    const share = rates.mcxShare[root] ?? rates.mcxShare.default ?? 0;
    const value = Math.abs(leg.price) * spec.lotUnits * leg.lots;
    let inr: number;
    if (spec.exchange === "MCX") inr = value * share;
    else if (groupOfExchange(spec.exchange) === "cme") {
      if (!Number.isFinite(usdinr)) return undefined;
      const perContract = rates.usInitialUsd[root];
      inr = (perContract === undefined ? value * share : perContract * leg.lots) * usdinr;
    } else continue; // FX, spot and index legs convert; they block no margin.
    lines.push({ leg: leg.name, inr: roundPaise(inr) });
  }
  return { inr: roundPaise(lines.reduce((sum, line) => sum + line.inr, 0)), lines };
}
