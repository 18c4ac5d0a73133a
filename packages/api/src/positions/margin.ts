// A position as the margin source reads it (margin-source.ts): each leg with the lots of ONE
// spread lot and the side the entry trades it, priced at the mark's legs. The configured rates
// stand in until a source is set (composition wires the configured-and-Kite one).
import {
  configuredMargin,
  DEFAULT_LOTS,
  defaultMarginRates,
  exitSideOf,
  hedgeFor,
  INSTRUMENTS,
  type InstrumentId,
  type InstrumentSpec,
  type MarginLeg,
  type MarginRates,
  mcxLot,
  type PositionSide,
} from "@spreadwatch/core";
import type { StoredPosition } from "@spreadwatch/db";
import type { RegisteredSpread } from "../spreads/registry.ts";
import type { BrokerCosts, Margin } from "./view.ts";

export interface PositionMarginLeg extends MarginLeg {
  /** The exchange contract the leg is on (Kite's tradingsymbol), where known. */
  contract?: string | undefined;
  /** Which way the position's entry trades this leg. */
  side: PositionSide;
}

export interface MarginPosition {
  id: number;
  /** Open lots. */
  lots: number;
  legs: readonly PositionMarginLeg[];
}

/** Where a position's margin and the broker's cost figure come from. */
export interface PositionMarginSource {
  marginFor(position: MarginPosition, usdinr: number): Promise<Margin | undefined>;
  brokerCosts(position: MarginPosition): Promise<BrokerCosts | undefined>;
}

const BUILT_IN_PARITIES = new Set<string>(INSTRUMENTS.map((i) => i.id));

/**
 * The legs that block margin: a definition's legs with lots; a built-in parity's standard MCX
 * lot and the CME hedge its row's perLot prices (GOLD's 1 kg: 3 MGC).
 */
export function marginPosition(
  position: Pick<StoredPosition, "id" | "side" | "lots" | "legs">,
  spread: RegisteredSpread,
  legPrices: Readonly<Record<string, number>>,
  contracts: Readonly<Record<string, string>>,
): MarginPosition {
  const directions = spread.checked?.compiled.directions ?? {};
  const sideOf = (name: string) =>
    directions[name] === -1 ? exitSideOf(position.side) : position.side;
  const leg = (name: string, instrument: string, lots: number | undefined): PositionMarginLeg => ({
    name,
    instrument,
    lots,
    price: legPrices[name] ?? Number.NaN,
    // The contract held, not the one quoted now: after the feed rolls a near leg, Kite must
    // still be asked about the month the position is in.
    contract: position.legs[name]?.contract ?? contracts[name],
    side: sideOf(name),
  });
  if (spread.builtin && BUILT_IN_PARITIES.has(spread.symbol)) {
    const lot = mcxLot(DEFAULT_LOTS[spread.symbol as InstrumentId]);
    const hedge = hedgeFor(lot);
    return {
      id: position.id,
      lots: position.lots,
      legs: [
        leg("m", lot.key, 1),
        leg("c", hedge.contract, hedge.contracts),
        leg("fx", "USDINR", undefined),
      ],
    };
  }
  return {
    id: position.id,
    lots: position.lots,
    legs: spread.legs.map((l) => leg(l.name, l.instrument, l.lots)),
  };
}

/** The configured rates alone: what every position shows until a source is set. */
export function configuredMarginSource(
  specOf: (key: string) => InstrumentSpec | undefined,
  rates: MarginRates = defaultMarginRates(),
  now: () => number = Date.now,
): PositionMarginSource {
  return {
    async marginFor(position, usdinr) {
      const perLot = configuredMargin(position.legs, usdinr, rates, specOf);
      if (!perLot || perLot.inr <= 0) return undefined;
      return {
        inr: Math.round(perLot.inr * position.lots * 100) / 100,
        source: "configured",
        at: now(),
      };
    },
    brokerCosts: async () => undefined,
  };
}
