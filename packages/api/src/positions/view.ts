// A position as the API answers it (docs/http-api.md "Positions API (paper)"): the stored record
// valued at the executable exit with core's functions, so a script with @spreadwatch/core gets the
// same figures.
import {
  type ContractMove,
  type CostBreakdown,
  markPosition,
  type PositionSide,
  roundPaise,
} from "@spreadwatch/core";
import type { PositionClose, PositionLeg, StoredPosition } from "@spreadwatch/db";

/** Margin of a position: configured rates, or Kite's basket figure for its MCX legs. */
export interface Margin {
  inr: number;
  source: "configured" | "kite";
  /** When the figure was made (epoch ms). */
  at: number;
  /** Kite's `initial.total` (before the spread benefit), where Kite answered. */
  initialInr?: number;
}

/** Kite's virtual contract note for the MCX legs' round trip, beside our own figure. */
export interface BrokerCosts {
  /** Kite's charges for all open lots, ₹. */
  inr: number;
  at: number;
  perLotInr?: number;
  /** Our MCX costs per lot at the prices Kite was asked at. */
  oursPerLotInr?: number;
  /** The two differ by more than ₹1 a lot: the configured cost rates are out of date. */
  costMismatch?: boolean;
}

export interface PositionView {
  id: number;
  spread: string;
  name: string;
  side: PositionSide;
  lots: number;
  entry: number;
  openedAt: number;
  note: string;
  targetInr: number | null;
  stopInr: number | null;
  status: "open" | "closed";
  closedAt: number | null;
  /** The executable exit (GC_SELL for a BUY position); the last one known while legs are stale. */
  mark: number | null;
  markedAt: number | null;
  markSymbol: string;
  units: number;
  grossInr: number | null;
  costsInr: number | null;
  netInr: number | null;
  netPerLotInr: number | null;
  dayOpenMark: number | null;
  changeTodayInr: number | null;
  margin: Margin | null;
  returnOnMargin: number | null;
  returnOnMarginAnnualised: number | null;
  daysHeld: number;
  /** A leg is missing, crossed or stale: the mark is the last known one, greyed. */
  stale: boolean;
  /** A near leg's roll day is this many days away (within the warning window); else null. */
  expiresInDays: number | null;
  /**
   * A leg's feed has rolled to another contract since the entry: the live value is another
   * contract's, so the mark stays the last one of the contract held, greyed, until a roll or a
   * close at a typed price (docs/user-guide.md "Positions (paper)").
   */
  contractMoved: ContractMove | null;
  campaignId: number;
  rolledFromId: number | null;
  /** Opened by a live-order campaign's real fills through Kite (not a paper record). */
  live: boolean;
  executionId: string | null;
  /** The campaign's slippage against its targeted spread, in ticks; null for paper. */
  slippageTicks: number | null;
  /** Realised ₹ of the whole roll chain plus the net of its open lots; null while one has no net. */
  campaignInr: number | null;
  /** Realised ₹ of this position's closes so far. */
  realisedInr: number;
  brokerCosts: BrokerCosts | null;
  /** Kite's contract note differs from our cost model by more than ₹1 a lot. */
  costMismatch: boolean;
  /** Per-lot round-trip cost lines at the mark. */
  breakdown: CostBreakdown | null;
  legs: Record<string, PositionLeg>;
  /** This position's closes, oldest first (the closed list shows them). */
  closes: PositionClose[];
}

/** What the service knows of a position's spread now. */
export interface Valuation {
  name: string;
  markSymbol: string;
  mark: number | undefined;
  markedAt: number | null;
  costsPerLotInr: number | undefined;
  breakdown: CostBreakdown | null;
  dayOpenMark: number | undefined;
  margin: Margin | null;
  brokerCosts: BrokerCosts | null;
  stale: boolean;
  expiresInDays: number | null;
  contractMoved: ContractMove | null;
}

/** ₹1 a lot: below that the difference is rounding, above it the rates are out of date. */
const COST_MISMATCH_PER_LOT_INR = 1;

export function positionView(
  position: StoredPosition,
  valuation: Valuation,
  closes: readonly PositionClose[],
  now: number,
): PositionView {
  const open = position.status === "open";
  const marked = markPosition(position, {
    mark: open ? valuation.mark : undefined,
    costsPerLotInr: valuation.costsPerLotInr,
    marginInr: valuation.margin?.inr,
    dayOpenMark: valuation.dayOpenMark,
    now,
  });
  const own = closes.filter((c) => c.positionId === position.id);
  const ourCosts =
    valuation.costsPerLotInr === undefined ? undefined : valuation.costsPerLotInr * position.lots;
  return {
    id: position.id,
    spread: position.spread,
    name: valuation.name,
    side: position.side,
    lots: position.lots,
    entry: position.entry,
    openedAt: position.openedAt,
    note: position.note,
    targetInr: position.targetInr,
    stopInr: position.stopInr,
    status: position.status,
    closedAt: position.closedAt,
    mark: open ? marked.mark : null,
    markedAt: open ? valuation.markedAt : null,
    markSymbol: valuation.markSymbol,
    units: position.units,
    grossInr: marked.grossInr,
    costsInr: marked.costsInr,
    netInr: marked.netInr,
    netPerLotInr: marked.netPerLotInr,
    dayOpenMark: open ? (valuation.dayOpenMark ?? null) : null,
    changeTodayInr: marked.changeTodayInr,
    margin: open ? valuation.margin : null,
    returnOnMargin: marked.returnOnMargin,
    returnOnMarginAnnualised: marked.returnOnMarginAnnualised,
    daysHeld: marked.daysHeld,
    stale: open && valuation.stale,
    expiresInDays: open ? valuation.expiresInDays : null,
    contractMoved: open ? valuation.contractMoved : null,
    campaignId: position.campaignId,
    rolledFromId: position.rolledFromId,
    live: position.executionId !== null,
    executionId: position.executionId,
    slippageTicks: position.slippageTicks,
    // The service fills it in: it needs the campaign's other positions.
    campaignInr: null,
    realisedInr: roundPaise(own.reduce((sum, c) => sum + c.realisedInr, 0)),
    brokerCosts: valuation.brokerCosts,
    costMismatch:
      valuation.brokerCosts?.costMismatch ??
      (valuation.brokerCosts !== null &&
        ourCosts !== undefined &&
        Math.abs(ourCosts - valuation.brokerCosts.inr) >
          COST_MISMATCH_PER_LOT_INR * Math.max(position.lots, 1)),
    breakdown: valuation.breakdown,
    legs: position.legs,
    closes: own,
  };
}
