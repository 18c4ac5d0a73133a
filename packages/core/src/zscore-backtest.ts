import { roundPaise } from "./costs.ts";
import { RollingSpreadStats } from "./spread-stats.ts";

/** When the z-score strategy trades; every field has a default (ZSCORE_RULES). */
export interface ZScoreRules {
  /** Enter when |z| reaches this: short the spread at z ≥ entryZ, long at z ≤ −entryZ. */
  entryZ: number;
  /** Leave once the spread is back within exitZ of the mean, or past it. */
  exitZ: number;
  /** The statistics window in days (5, 20 or 60, as docs/http-api.md allows). */
  days: number;
  /** No trade until the window holds this many closes: z of a few closes means little. */
  minCloses: number;
}

export const ZSCORE_RULES: Readonly<ZScoreRules> = {
  entryZ: 2,
  exitZ: 0.5,
  days: 20,
  minCloses: 30,
};

export type TradeSide = "long" | "short";

export interface ZScoreTrade {
  /** long: bought the spread (profits when it rises); short: sold it. */
  side: TradeSide;
  entryTime: number;
  entrySpread: number;
  entryZ: number;
  exitTime: number;
  exitSpread: number;
  /** Undefined when the data ended with the position open and it was closed at the last close. */
  exitZ: number | undefined;
  /** Spread move × units in the trade's direction, to paise. */
  grossInr: number;
  costsInr: number;
  netInr: number;
}

export interface ZScoreBacktest {
  trades: ZScoreTrade[];
  closes: number;
  grossInr: number;
  costsInr: number;
  netInr: number;
  /** Largest fall of cumulative net P&L (after each trade) from its running peak, from 0. */
  maxDrawdownInr: number;
}

/**
 * A one-lot mean-reversion backtest over 1-minute closes. At each candle, the z-score of its
 * close is taken against the closes before it (RollingSpreadStats over `days`, exactly what
 * the live z column shows for a live value), then the close joins the window: no look-ahead.
 * One action per candle; a position still open at the end is closed at the last close.
 * `units` is the lot's multiplier and `costsPerTradeInr` the round trip of both legs (e.g.
 * perLot(…).costsInr), charged once per trade. Candles are taken in time order; a repeated
 * time keeps the later close.
 */
export function backtestZScore(
  candles: readonly { timestamp: number; close: number }[],
  units: number,
  costsPerTradeInr: number,
  rules: Partial<ZScoreRules> = {},
): ZScoreBacktest {
  const { entryZ, exitZ, days, minCloses } = { ...ZSCORE_RULES, ...rules };
  const stats = new RollingSpreadStats(days);
  const trades: ZScoreTrade[] = [];
  let open: { side: TradeSide; time: number; spread: number; z: number } | undefined;
  const close = (time: number, spread: number, z: number | undefined) => {
    if (!open) return;
    trades.push(trade(open, time, spread, z, units, costsPerTradeInr));
    open = undefined;
  };
  // Of two candles with one open time the later wins, as in the statistics.
  const byTime = new Map(candles.map((c) => [c.timestamp, c.close]));
  const ordered = [...byTime]
    .map(([timestamp, close]) => ({ timestamp, close }))
    .sort((a, b) => a.timestamp - b.timestamp);
  for (const { timestamp, close: value } of ordered) {
    const s = stats.stats(value);
    const z = s.n >= minCloses ? s.z : undefined;
    if (z !== undefined) {
      if (open?.side === "short" && z <= exitZ) close(timestamp, value, z);
      else if (open?.side === "long" && z >= -exitZ) close(timestamp, value, z);
      else if (!open && z >= entryZ) open = { side: "short", time: timestamp, spread: value, z };
      else if (!open && z <= -entryZ) open = { side: "long", time: timestamp, spread: value, z };
    }
    stats.add(timestamp, value);
  }
  const last = ordered[ordered.length - 1];
  if (last) close(last.timestamp, last.close, undefined);
  return summarise(trades, ordered.length);
}

function trade(
  open: { side: TradeSide; time: number; spread: number; z: number },
  time: number,
  spread: number,
  z: number | undefined,
  units: number,
  costsInr: number,
): ZScoreTrade {
  const direction = open.side === "long" ? 1 : -1;
  const grossInr = roundPaise((spread - open.spread) * direction * units);
  return {
    side: open.side,
    entryTime: open.time,
    entrySpread: open.spread,
    entryZ: open.z,
    exitTime: time,
    exitSpread: spread,
    exitZ: z,
    grossInr,
    costsInr: roundPaise(costsInr),
    netInr: roundPaise(grossInr - costsInr),
  };
}

function summarise(trades: ZScoreTrade[], closes: number): ZScoreBacktest {
  let equity = 0;
  let peak = 0;
  let maxDrawdownInr = 0;
  for (const t of trades) {
    equity = roundPaise(equity + t.netInr);
    peak = Math.max(peak, equity);
    maxDrawdownInr = Math.max(maxDrawdownInr, roundPaise(peak - equity));
  }
  const sum = (pick: (t: ZScoreTrade) => number) =>
    roundPaise(trades.reduce((a, t) => a + pick(t), 0));
  return {
    trades,
    closes,
    grossInr: sum((t) => t.grossInr),
    costsInr: sum((t) => t.costsInr),
    netInr: equity,
    maxDrawdownInr,
  };
}
