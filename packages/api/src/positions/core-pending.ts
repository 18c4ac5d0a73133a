// Stand-ins for core's position.ts and definition-per-lot.ts until they land on main; the same
// signatures, so the swap is an import change. Deleted then.
import {
  type CostBreakdown,
  type CostRates,
  type InstrumentSpec,
  roundPaise,
} from "@spreadwatch/core";

export type PositionSide = "BUY" | "SELL";

export const exitSideOf = (side: PositionSide): PositionSide => (side === "BUY" ? "SELL" : "BUY");
export const executableSymbol = (spread: string, side: PositionSide) => `${spread}_${side}`;

export function grossInr(
  side: PositionSide,
  entry: number,
  mark: number,
  units: number,
  lots: number,
): number {
  const points = side === "BUY" ? mark - entry : entry - mark;
  return roundPaise(points * units * lots);
}

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

export interface PositionMark {
  mark: number | null;
  grossInr: number | null;
  costsInr: number | null;
  netInr: number | null;
  netPerLotInr: number | null;
  changeTodayInr: number | null;
  returnOnMargin: number | null;
  returnOnMarginAnnualised: number | null;
  daysHeld: number;
}

const DAY_MS = 86_400_000;

export function markPosition(
  position: { side: PositionSide; lots: number; entry: number; units: number; openedAt: number },
  live: {
    mark?: number | undefined;
    costsPerLotInr?: number | undefined;
    marginInr?: number | undefined;
    dayOpenMark?: number | undefined;
    now: number;
  },
): PositionMark {
  const { side, lots, entry, units } = position;
  const daysHeld = Math.max(0, Math.floor((live.now - position.openedAt) / DAY_MS));
  const mark = live.mark ?? null;
  const gross = mark === null ? null : grossInr(side, entry, mark, units, lots);
  const costs = live.costsPerLotInr === undefined ? null : roundPaise(live.costsPerLotInr * lots);
  const net = gross === null || costs === null ? null : roundPaise(gross - costs);
  const rom = net !== null && live.marginInr ? net / live.marginInr : null;
  return {
    mark,
    grossInr: gross,
    costsInr: costs,
    netInr: net,
    netPerLotInr: net === null ? null : roundPaise(net / lots),
    changeTodayInr:
      mark === null || live.dayOpenMark === undefined
        ? null
        : grossInr(side, live.dayOpenMark, mark, units, lots),
    returnOnMargin: rom,
    returnOnMarginAnnualised: rom === null ? null : (rom * 365) / Math.max(daysHeld, 1),
    daysHeld,
  };
}

export interface ClosedSummary {
  trades: number;
  netInr: number;
  winRate: number | null;
  averageHoldingMs: number | null;
  best: number | null;
  worst: number | null;
}

export function summariseClosed(
  trades: readonly { realisedInr: number; openedAt: number; closedAt: number }[],
): ClosedSummary {
  if (trades.length === 0)
    return { trades: 0, netInr: 0, winRate: null, averageHoldingMs: null, best: null, worst: null };
  const realised = trades.map((t) => t.realisedInr);
  return {
    trades: trades.length,
    netInr: roundPaise(realised.reduce((a, b) => a + b, 0)),
    winRate: realised.filter((r) => r > 0).length / trades.length,
    averageHoldingMs: trades.reduce((sum, t) => sum + (t.closedAt - t.openedAt), 0) / trades.length,
    best: Math.max(...realised),
    worst: Math.min(...realised),
  };
}

type SpecOf = (key: string) => InstrumentSpec | undefined;

export function definitionUnits(
  legs: readonly { instrument: string; lots?: number | undefined }[],
  specOf: SpecOf,
): number | undefined {
  for (const leg of legs) {
    if (leg.lots === undefined) continue;
    const spec = specOf(leg.instrument);
    if (spec?.currency === "INR") return spec.lotUnits * leg.lots;
  }
  return undefined;
}

export function definitionCosts(
  legs: readonly { name: string; instrument: string; lots?: number | undefined }[],
  legPrices: Readonly<Record<string, number>>,
  usdinr: number,
  rates: CostRates,
  specOf: SpecOf,
): CostBreakdown | undefined {
  if (!legs.some((leg) => leg.lots !== undefined)) return undefined;
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
    const spec = specOf(leg.instrument);
    const price = legPrices[leg.name];
    if (leg.lots === undefined || !spec || price === undefined) continue;
    if (spec.exchange === "MCX") {
      const side = Math.abs(price * spec.lotUnits * leg.lots);
      const brokerage = 2 * rates.mcxBrokeragePerOrder;
      const exchange = (2 * side * rates.mcxExchangePerCrore) / 10_000_000;
      const sebi = (2 * side * rates.sebiPerCrore) / 10_000_000;
      b.mcxTurnover += 2 * side;
      b.brokerage += brokerage;
      b.exchange += exchange;
      b.sebi += sebi;
      b.ctt += side * rates.cttSellRate;
      b.stampDuty += side * rates.stampDutyBuyRate;
      b.gst += (brokerage + exchange + sebi) * rates.gstRate;
    } else if (["CME", "NYMEX", "COMEX"].includes(spec.exchange)) {
      const root = leg.instrument.split("@")[0] as string;
      const perSide =
        (rates.cmePerContractPerSideUsd as Record<string, number>)[root] ??
        rates.cmePerContractPerSideUsd.GC;
      const usd = 2 * leg.lots * perSide;
      b.cmeUsd += usd;
      b.cme += usd * usdinr;
    }
  }
  return b;
}
