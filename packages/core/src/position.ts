// A spread position (paper: no order goes to a broker) marked at the price it could be left at
// now. The server and the browser both mark with these functions, so a script that imports
// @spreadwatch/core gets the figures the Positions tab shows (docs/user-guide.md, "Positions
// (paper)").
import { roundPaise } from "./costs.ts";

export type PositionSide = "BUY" | "SELL";

const DAY_MS = 86_400_000;

/**
 * A return is annualised only from a week held: before that ×365 ÷ days turns a morning's
 * noise into "−209.86 % a year" (README "Positions (paper)"). A week is the shortest hold a
 * spread trade between two contract rolls is usually judged on.
 */
export const ANNUALISE_FROM_DAYS = 7;

/** A position is left on the other side: a BUY is sold at the spread's SELL value. */
export function exitSideOf(side: PositionSide): PositionSide {
  return side === "BUY" ? "SELL" : "BUY";
}

/** The executable symbol a side of a spread trades at: GC + BUY → GC_BUY, SP7 + SELL → SP7_SELL. */
export function executableSymbol(spread: string, side: PositionSide): string {
  return `${spread}_${side}`;
}

/** What a position is marked with: its exit side's executable symbol (GC_SELL for a BUY). */
export function markSymbolOf(position: { spread: string; side: PositionSide }): string {
  return executableSymbol(position.spread, exitSideOf(position.side));
}

/** (to − from) × units × lots for a BUY, the reverse for a SELL, to paise. */
export function grossInr(
  side: PositionSide,
  from: number,
  to: number,
  units: number,
  lots: number,
): number {
  const points = side === "BUY" ? to - from : from - to;
  return roundPaise(points * units * lots);
}

export interface PositionTerms {
  side: PositionSide;
  lots: number;
  /** The spread's value the position was entered at. */
  entry: number;
  /** ₹ per spread point per lot. */
  units: number;
  openedAt: number;
}

export interface LiveInputs {
  /** The executable exit now; undefined while the spread has no value. */
  mark?: number | undefined;
  /** Round-trip costs of one lot (entry and exit), ₹. */
  costsPerLotInr?: number | undefined;
  marginInr?: number | undefined;
  /** The exit's value at the day's first minute (or the entry, when opened later). */
  dayOpenMark?: number | undefined;
  now: number;
}

export interface PositionMark {
  mark: number | null;
  grossInr: number | null;
  costsInr: number | null;
  netInr: number | null;
  netPerLotInr: number | null;
  changeTodayInr: number | null;
  /** netInr ÷ margin: 0.05 is 5 %. */
  returnOnMargin: number | null;
  /** returnOnMargin × 365 ÷ days held; null before ANNUALISE_FROM_DAYS (too short to annualise). */
  returnOnMarginAnnualised: number | null;
  daysHeld: number;
}

function finite(value: number | undefined): value is number {
  return value !== undefined && Number.isFinite(value);
}

/** Days from `openedAt` to `now`, fractional, never negative (a clock behind the entry reads 0). */
export function daysHeld(openedAt: number, now: number): number {
  return Math.max(0, (now - openedAt) / DAY_MS);
}

/** The position's figures at `live.mark`; each is null when an input it needs is missing. */
export function markPosition(position: PositionTerms, live: LiveInputs): PositionMark {
  const held = daysHeld(position.openedAt, live.now);
  const mark = finite(live.mark) ? live.mark : null;
  const gross =
    mark === null
      ? null
      : grossInr(position.side, position.entry, mark, position.units, position.lots);
  const costs = finite(live.costsPerLotInr)
    ? roundPaise(live.costsPerLotInr * position.lots)
    : null;
  const net = gross === null || costs === null ? null : roundPaise(gross - costs);
  const change =
    mark === null || !finite(live.dayOpenMark)
      ? null
      : grossInr(position.side, live.dayOpenMark, mark, position.units, position.lots);
  const rom =
    net === null || !finite(live.marginInr) || live.marginInr <= 0 ? null : net / live.marginInr;
  return {
    mark,
    grossInr: gross,
    costsInr: costs,
    netInr: net,
    netPerLotInr: net === null ? null : roundPaise(net / position.lots),
    changeTodayInr: change,
    returnOnMargin: rom,
    returnOnMarginAnnualised:
      rom === null || held < ANNUALISE_FROM_DAYS ? null : (rom * 365) / held,
    daysHeld: held,
  };
}

/** Realised ₹ of closing `lots` at `exit`: the gross less those lots' round-trip costs. */
export function realisedInr(
  side: PositionSide,
  entry: number,
  exit: number,
  units: number,
  lots: number,
  costsPerLotInr: number,
): number {
  return roundPaise(grossInr(side, entry, exit, units, lots) - costsPerLotInr * lots);
}

export interface ClosedTrade {
  realisedInr: number;
  openedAt: number;
  closedAt: number;
}

export interface ClosedSummary {
  trades: number;
  netInr: number;
  /** Share of trades with a positive realised ₹; null with no trades. */
  winRate: number | null;
  averageHoldingMs: number | null;
  best: number | null;
  worst: number | null;
}

/** The closed-trades summary: net total, win rate, average holding time, best and worst. */
export function summariseClosed(trades: readonly ClosedTrade[]): ClosedSummary {
  if (trades.length === 0)
    return { trades: 0, netInr: 0, winRate: null, averageHoldingMs: null, best: null, worst: null };
  let net = 0;
  let wins = 0;
  let holding = 0;
  let best = Number.NEGATIVE_INFINITY;
  let worst = Number.POSITIVE_INFINITY;
  for (const trade of trades) {
    net += trade.realisedInr;
    if (trade.realisedInr > 0) wins++;
    holding += trade.closedAt - trade.openedAt;
    best = Math.max(best, trade.realisedInr);
    worst = Math.min(worst, trade.realisedInr);
  }
  return {
    trades: trades.length,
    netInr: roundPaise(net),
    winRate: wins / trades.length,
    averageHoldingMs: holding / trades.length,
    best,
    worst,
  };
}

/** A leg as a position holds it: the instrument and the exchange contract it entered on. */
export interface HeldLeg {
  instrument: string;
  contract?: string | undefined;
}

/** A leg whose quotes now name another contract than the one the position holds. */
export interface ContractMove {
  leg: string;
  instrument: string;
  from: string;
  to: string;
}

/**
 * The first leg whose feed has rolled to another contract since the position entered (GOLD's
 * quotes now name GOLD26FEBFUT, the position holds GOLD26DECFUT): from then on the live value
 * is another contract's, so the position's mark and alerts must not use it. Legs whose contract
 * is not known (on entry or now) never count as moved.
 */
export function contractMoved(
  legs: Readonly<Record<string, HeldLeg>>,
  contractNow: (instrument: string) => string | undefined,
): ContractMove | undefined {
  for (const [leg, held] of Object.entries(legs)) {
    if (held.contract === undefined) continue;
    const now = contractNow(held.instrument);
    if (now !== undefined && now !== held.contract)
      return { leg, instrument: held.instrument, from: held.contract, to: now };
  }
  return undefined;
}

/** What a moved contract means to the trader, in one sentence. */
export function contractMoveText(move: ContractMove): string {
  return `${move.instrument} now quotes ${move.to}, not the ${move.from} held: roll the position, or close it at a typed price`;
}
