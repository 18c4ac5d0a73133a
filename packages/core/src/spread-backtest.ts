// A spread rule tried on its executable history (docs/backtest.md): one implementation for the
// server, the browser's sweep worker and a script over a CSV.
import { IST_OFFSET_MS } from "./candles.ts";
import { roundPaise } from "./costs.ts";
import { rollingMetric } from "./rolling-metric.ts";
import { DEFAULT_STATS_DAYS } from "./spread-stats.ts";

export const BACKTEST_METRICS = ["spread", "z", "percentile"] as const;
export type BacktestMetric = (typeof BACKTEST_METRICS)[number];

/** What a rule trades on and when; every threshold is in the metric's own unit. */
export interface SpreadRule {
  metric: BacktestMetric;
  /** Sell the spread when the SELL side's metric is at or above this. */
  sellAbove?: number | undefined;
  /** Buy the spread when the BUY side's metric is at or below this. */
  buyBelow?: number | undefined;
  /** Buy a short back when the BUY side's metric is at or below this. */
  exitShortAt?: number | undefined;
  /** Sell a long when the SELL side's metric is at or above this. */
  exitLongAt?: number | undefined;
  /** Close once the trade's net ₹ (after both round trips' costs) reaches this. */
  targetInr?: number | undefined;
  /** Close once the trade's net ₹ falls to minus this. */
  stopInr?: number | undefined;
  maxHoldMinutes?: number | undefined;
  /** No new entry until this many minutes after an exit (a roll's exit excepted). */
  cooldownMinutes?: number | undefined;
  lots: number;
  /** Ticks of slippage on every leg of every fill, against the trader. */
  slippageTicks?: number | undefined;
}

/** The numeric fields of a rule a sweep may vary. */
export const RULE_FIELDS = [
  "sellAbove",
  "buyBelow",
  "exitShortAt",
  "exitLongAt",
  "targetInr",
  "stopInr",
  "maxHoldMinutes",
  "cooldownMinutes",
] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

/**
 * One minute of a spread: the closes of its executable sides, or where only mids were kept
 * (history computed from the legs' mid candles) the mid close.
 */
export interface BacktestMinute {
  /** Open time of the minute, epoch ms. */
  timestamp: number;
  /** The BUY side's close: what buying the spread costs. */
  buy?: number | undefined;
  /** The SELL side's close: what selling the spread fetches. */
  sell?: number | undefined;
  mid?: number | undefined;
}

export interface BacktestOptions {
  /** ₹ per spread point on one lot. */
  units: number;
  /** Round-trip costs of one lot, both legs, ₹. */
  costsPerLotInr: number;
  /** Margin one lot blocks, ₹; without it there is no return on margin. */
  marginPerLotInr?: number | undefined;
  /** Spread points one tick on every leg moves the spread (Σ |∂spread/∂leg| × tick). */
  tickPoints?: number | undefined;
  /** Half the typical bid-ask of the spread, points: a mid-only minute fills at mid ± this. */
  halfSpread?: number | undefined;
  /** Times at which the legs moved to new contracts (the rolls of /api/rolls). */
  rolls?: readonly number[] | undefined;
  /** Rolling window of z and percentile, days (the live statistics'). */
  statsDays?: number | undefined;
  /** No z or percentile decision until the window holds this many closes. */
  minCloses?: number | undefined;
  /** Minutes before this only feed the statistics (an out-of-sample run's warm-up). */
  tradeFrom?: number | undefined;
}

export type TradeReason = "rule" | "target" | "stop" | "time" | "roll" | "end";

export interface BacktestTrade {
  /** long: bought the spread; short: sold it. */
  side: "long" | "short";
  entryAt: number;
  entry: number;
  exitAt: number;
  exit: number;
  reason: TradeReason;
  grossInr: number;
  costsInr: number;
  netInr: number;
}

export interface BacktestSummary {
  trades: number;
  wins: number;
  /** wins / trades, 0..1; 0 with no trades. */
  winRate: number;
  netInr: number;
  grossInr: number;
  costsInr: number;
  /** Largest fall of the closed-trade equity from its running peak (from 0), ₹. */
  maxDrawdownInr: number;
  averageHoldingMs: number;
  /** Share of the minutes with a position open, 0..1. */
  exposure: number;
  /** Mean / standard deviation of net ₹ per IST day with data, × √252; null with < 2 days or no variation. */
  sharpeDaily: number | null;
  /** netInr over the margin the lots block; null without a margin. */
  returnOnMargin: number | null;
  /** Fills priced at a mid ± half the typical bid-ask rather than a recorded side. */
  estimatedFills: number;
}

export interface BacktestResult {
  trades: BacktestTrade[];
  summary: BacktestSummary;
  /** Cumulative net ₹ after each exit, from 0 at the first minute: [t, inr]. */
  equity: [number, number][];
  /** How the fills were taken, said plainly for whoever reads the result. */
  fills: string;
}

export const FILLS_TEXT =
  "Decided on each minute's closes and filled at those closes: a long buys at the BUY side and sells at the SELL side, a short the reverse; a minute with only a mid fills at the mid ± half the typical bid-ask.";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

interface Open {
  side: "long" | "short";
  entryAt: number;
  entry: number;
  /** Which contracts (roll generation) it was entered on. */
  generation: number;
}

/**
 * A spread's minutes made ready for many runs (a sweep's cells): in time order, as columns, each
 * minute's fill prices and, per metric asked, each side's metric. Built for one `options`.
 */
export interface BacktestSeries {
  /** Open times, ascending; every minute given, priced or not (IST days count them). */
  times: Float64Array;
  /** What buying the spread costs; NaN for a minute with no price. */
  buy: Float64Array;
  /** What selling the spread fetches; NaN for a minute with no price. */
  sell: Float64Array;
  /** 1 where the fill is a mid ± half the typical bid-ask. */
  estimated: Uint8Array;
  /** Each side's metric per minute (NaN: none yet), by metric, filled on first use. */
  metrics: Map<string, { buy: Float64Array; sell: Float64Array }>;
}

/**
 * Minutes as columns, oldest first, times strictly ascending (what the server reads from the
 * store without an object per minute): a minute with both sides has `buy` and `sell`; one with
 * only a mid has NaN there and its `mid`.
 */
export interface BacktestColumns {
  times: ArrayLike<number>;
  buy: ArrayLike<number>;
  sell: ArrayLike<number>;
  mid?: ArrayLike<number> | undefined;
}

/**
 * `minutes` (any order; a repeated time keeps the later) or columns (times ascending, else
 * they are ordered as minutes are) as a BacktestSeries.
 */
export function backtestSeries(
  minutes: readonly BacktestMinute[] | BacktestColumns,
  options: Pick<BacktestOptions, "halfSpread">,
): BacktestSeries {
  if (!Array.isArray(minutes)) {
    const columns = minutes as BacktestColumns;
    return ascending(columns.times)
      ? seriesOfColumns(columns, options.halfSpread ?? 0)
      : backtestSeries(minutesOf(columns), options);
  }
  const ordered = orderMinutes(minutes as readonly BacktestMinute[]);
  const n = ordered.length;
  const times = new Float64Array(n);
  const buy = new Float64Array(n);
  const sell = new Float64Array(n);
  const mid = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const m = ordered[i] as BacktestMinute;
    times[i] = m.timestamp;
    buy[i] = m.buy ?? Number.NaN;
    sell[i] = m.sell ?? Number.NaN;
    mid[i] = m.mid ?? Number.NaN;
  }
  return seriesOfColumns({ times, buy, sell, mid }, options.halfSpread ?? 0);
}

function ascending(times: ArrayLike<number>): boolean {
  let previous = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < times.length; i++) {
    const t = times[i] as number;
    if (!(Number.isFinite(t) && t > previous)) return false;
    previous = t;
  }
  return true;
}

function minutesOf({ times, buy, sell, mid }: BacktestColumns): BacktestMinute[] {
  return Array.from({ length: times.length }, (_, i) => ({
    timestamp: times[i] as number,
    buy: buy[i],
    sell: sell[i],
    mid: mid?.[i],
  }));
}

function seriesOfColumns(columns: BacktestColumns, halfSpread: number): BacktestSeries {
  const n = columns.times.length;
  // A copy by the constructor: Float64Array.from walks an iterator (~10 ms for a year).
  const times = new Float64Array(columns.times);
  const buy = new Float64Array(n);
  const sell = new Float64Array(n);
  const estimated = new Uint8Array(n);
  const mids = columns.mid;
  for (let i = 0; i < n; i++) {
    const b = columns.buy[i] as number;
    const s = columns.sell[i] as number;
    const mid = mids === undefined ? Number.NaN : (mids[i] as number);
    if (Number.isFinite(b) && Number.isFinite(s)) {
      buy[i] = b;
      sell[i] = s;
    } else if (Number.isFinite(mid)) {
      buy[i] = mid + halfSpread;
      sell[i] = mid - halfSpread;
      estimated[i] = 1;
    } else {
      buy[i] = Number.NaN;
      sell[i] = Number.NaN;
    }
  }
  return { times, buy, sell, estimated, metrics: new Map() };
}

/**
 * The minutes both sides recorded, as columns: each side's [times, closes] oldest first, joined
 * on their times.
 */
export function joinSides(
  buy: { times: ArrayLike<number>; closes: ArrayLike<number> },
  sell: { times: ArrayLike<number>; closes: ArrayLike<number> },
): { times: Float64Array; buy: Float64Array; sell: Float64Array } {
  const length = Math.min(buy.times.length, sell.times.length);
  const times = new Float64Array(length);
  const buys = new Float64Array(length);
  const sells = new Float64Array(length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < buy.times.length; i++) {
    const t = buy.times[i] as number;
    while (j < sell.times.length && (sell.times[j] as number) < t) j++;
    if (j < sell.times.length && sell.times[j] === t) {
      times[n] = t;
      buys[n] = buy.closes[i] as number;
      sells[n] = sell.closes[j] as number;
      n++;
    }
  }
  // Views, not copies: the columns are at most the shorter side long.
  return { times: times.subarray(0, n), buy: buys.subarray(0, n), sell: sells.subarray(0, n) };
}

/** Each side's z or percentile per minute, computed once per series and window. */
function sideMetrics(
  series: BacktestSeries,
  metric: "z" | "percentile",
  days: number,
  minCloses: number,
): { buy: Float64Array; sell: Float64Array } {
  const key = `${metric}:${days}:${minCloses}`;
  let found = series.metrics.get(key);
  if (!found) {
    found = {
      buy: rollingMetric(metric, series.times, series.buy, days, minCloses),
      sell: rollingMetric(metric, series.times, series.sell, days, minCloses),
    };
    series.metrics.set(key, found);
  }
  return found;
}

/**
 * Runs `rule` over `minutes` (any order; a repeated time keeps the later), one position at a
 * time, at most one decision a minute. A z or percentile at minute t is each side's against
 * that side's closes before t (the live statistics' window, rollingMetric): no look-ahead. A
 * position open when the legs roll is closed at the old contracts' last minute, and the rule
 * may re-enter on the new ones at the next; one open at the end is closed at the last minute.
 */
export function backtestSpread(
  minutes: readonly BacktestMinute[] | BacktestColumns | BacktestSeries,
  rule: SpreadRule,
  options: BacktestOptions,
): BacktestResult {
  const series = isSeries(minutes) ? minutes : backtestSeries(minutes, options);
  return runSeries(series, rule, options, series.times.length);
}

function isSeries(
  value: readonly BacktestMinute[] | BacktestColumns | BacktestSeries,
): value is BacktestSeries {
  return !Array.isArray(value) && (value as BacktestSeries).metrics instanceof Map;
}

/** backtestSpread over the series' first `end` minutes. */
function runSeries(
  series: BacktestSeries,
  rule: SpreadRule,
  options: BacktestOptions,
  end: number,
): BacktestResult {
  const { times, buy: buys, sell: sells, estimated: estimates } = series;
  const slip = (rule.slippageTicks ?? 0) * (options.tickPoints ?? 0);
  const lots = rule.lots;
  const perPoint = options.units * lots;
  const costs = roundPaise(options.costsPerLotInr * lots);
  const rolls = [...(options.rolls ?? [])].filter(Number.isFinite).sort((a, b) => a - b);
  const metrics =
    rule.metric === "spread"
      ? { buy: buys, sell: sells }
      : sideMetrics(
          series,
          rule.metric,
          options.statsDays ?? DEFAULT_STATS_DAYS,
          options.minCloses ?? 30,
        );
  const buyMetrics = metrics.buy;
  const sellMetrics = metrics.sell;
  const tradeFrom = options.tradeFrom ?? Number.NEGATIVE_INFINITY;
  const cooldownMs = (rule.cooldownMinutes ?? 0) * MINUTE_MS;
  const maxHoldMs = rule.maxHoldMinutes === undefined ? Infinity : rule.maxHoldMinutes * MINUTE_MS;
  const { sellAbove, buyBelow, exitShortAt, exitLongAt, stopInr, targetInr } = rule;

  const trades: BacktestTrade[] = [];
  let estimatedFills = 0;
  let open: Open | undefined;
  let entryEstimated = false;
  let nextEntryAt = Number.NEGATIVE_INFINITY;
  let generation = 0;
  let rollIndex = 0;
  // The previous usable minute, kept in locals: the loop allocates nothing per minute.
  let prevAt: number | undefined;
  let prevBuy = 0;
  let prevSell = 0;
  let prevEstimated = false;
  let heldMinutes = 0;
  let tradedMinutes = 0;
  let firstTraded: number | undefined;

  const close = (at: number, value: number, estimated: boolean, reason: TradeReason) => {
    const o = open as Open;
    const exit = o.side === "long" ? value - slip : value + slip;
    const gross = roundPaise((o.side === "long" ? exit - o.entry : o.entry - exit) * perPoint);
    trades.push({
      side: o.side,
      entryAt: o.entryAt,
      entry: o.entry,
      exitAt: at,
      exit,
      reason,
      grossInr: gross,
      costsInr: costs,
      netInr: roundPaise(gross - costs),
    });
    if (estimated) estimatedFills++;
    if (entryEstimated) estimatedFills++;
    open = undefined;
  };

  for (let i = 0; i < end; i++) {
    const buy = buys[i] as number;
    // A minute with no price (NaN) takes no decision.
    if (Number.isNaN(buy)) continue;
    const sell = sells[i] as number;
    const estimated = estimates[i] === 1;
    const t = times[i] as number;
    while (rollIndex < rolls.length && (rolls[rollIndex] as number) <= t) {
      rollIndex++;
      generation++;
    }
    if (t < tradeFrom) {
      prevAt = t;
      prevBuy = buy;
      prevSell = sell;
      prevEstimated = estimated;
      continue;
    }
    // NaN compares false with every threshold: no metric yet decides nothing.
    const buyMetric = buyMetrics[i] as number;
    const sellMetric = sellMetrics[i] as number;
    firstTraded ??= t;
    tradedMinutes++;
    // The old contracts' last minute is the exit of a trade the roll interrupts.
    if (open && open.generation !== generation && prevAt !== undefined) {
      close(prevAt, open.side === "long" ? prevSell : prevBuy, prevEstimated, "roll");
    }
    let decided = false;
    if (open) {
      heldMinutes++;
      const long = open.side === "long";
      const exitValue = long ? sell - slip : buy + slip;
      const net = (long ? exitValue - open.entry : open.entry - exitValue) * perPoint - costs;
      let reason: TradeReason | undefined;
      if (stopInr !== undefined && net <= -stopInr) reason = "stop";
      else if (targetInr !== undefined && net >= targetInr) reason = "target";
      else if (!long && exitShortAt !== undefined && buyMetric <= exitShortAt) reason = "rule";
      else if (long && exitLongAt !== undefined && sellMetric >= exitLongAt) reason = "rule";
      else if (t - open.entryAt >= maxHoldMs) reason = "time";
      if (reason) {
        close(t, long ? sell : buy, estimated, reason);
        nextEntryAt = t + cooldownMs;
        decided = true;
      }
    }
    if (!open && !decided && t >= nextEntryAt) {
      if (sellAbove !== undefined && sellMetric >= sellAbove) {
        open = { side: "short", entryAt: t, entry: sell - slip, generation };
        entryEstimated = estimated;
      } else if (buyBelow !== undefined && buyMetric <= buyBelow) {
        open = { side: "long", entryAt: t, entry: buy + slip, generation };
        entryEstimated = estimated;
      }
    }
    prevAt = t;
    prevBuy = buy;
    prevSell = sell;
    prevEstimated = estimated;
  }
  if (open && prevAt !== undefined)
    close(prevAt, open.side === "long" ? prevSell : prevBuy, prevEstimated, "end");
  return {
    trades,
    summary: summarise(trades, {
      estimatedFills,
      exposure: tradedMinutes > 0 ? heldMinutes / tradedMinutes : 0,
      marginInr:
        options.marginPerLotInr !== undefined && options.marginPerLotInr > 0
          ? options.marginPerLotInr * lots
          : undefined,
      days: tradingDays(times, end, firstTraded),
    }),
    equity: equityCurve(trades, firstTraded),
    fills: FILLS_TEXT,
  };
}

function orderMinutes(minutes: readonly BacktestMinute[]): readonly BacktestMinute[] {
  let sorted = true;
  let previous = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < minutes.length && sorted; i++) {
    const t = (minutes[i] as BacktestMinute).timestamp;
    sorted = Number.isFinite(t) && t > previous;
    previous = t;
  }
  if (sorted) return minutes;
  const byTime = new Map<number, BacktestMinute>();
  for (const m of minutes) if (Number.isFinite(m.timestamp)) byTime.set(m.timestamp, m);
  return [...byTime.values()].sort((a, b) => a.timestamp - b.timestamp);
}

/** IST days from the first traded minute on, each with its net ₹ (0 for a day without exits). */
function tradingDays(times: Float64Array, end: number, from: number | undefined): number[] {
  if (from === undefined) return [];
  const days: number[] = [];
  for (let i = 0; i < end; i++) {
    const t = times[i] as number;
    if (t < from) continue;
    const day = Math.floor((t + IST_OFFSET_MS) / DAY_MS);
    if (days[days.length - 1] !== day) days.push(day);
  }
  return days;
}

function equityCurve(
  trades: readonly BacktestTrade[],
  from: number | undefined,
): [number, number][] {
  if (from === undefined) return [];
  const curve: [number, number][] = [[from, 0]];
  let equity = 0;
  for (const t of trades) {
    equity = roundPaise(equity + t.netInr);
    curve.push([t.exitAt, equity]);
  }
  return curve;
}

function summarise(
  trades: readonly BacktestTrade[],
  extra: {
    estimatedFills: number;
    exposure: number;
    marginInr: number | undefined;
    days: number[];
  },
): BacktestSummary {
  let equity = 0;
  let peak = 0;
  let maxDrawdownInr = 0;
  let wins = 0;
  let gross = 0;
  let costs = 0;
  let holding = 0;
  const byDay = new Map<number, number>(extra.days.map((d) => [d, 0]));
  for (const t of trades) {
    equity = roundPaise(equity + t.netInr);
    peak = Math.max(peak, equity);
    maxDrawdownInr = Math.max(maxDrawdownInr, roundPaise(peak - equity));
    if (t.netInr > 0) wins++;
    gross += t.grossInr;
    costs += t.costsInr;
    holding += t.exitAt - t.entryAt;
    const day = Math.floor((t.exitAt + IST_OFFSET_MS) / DAY_MS);
    byDay.set(day, (byDay.get(day) ?? 0) + t.netInr);
  }
  const n = trades.length;
  return {
    trades: n,
    wins,
    winRate: n > 0 ? wins / n : 0,
    netInr: equity,
    grossInr: roundPaise(gross),
    costsInr: roundPaise(costs),
    maxDrawdownInr,
    averageHoldingMs: n > 0 ? Math.round(holding / n) : 0,
    exposure: extra.exposure,
    sharpeDaily: sharpe([...byDay.values()]),
    returnOnMargin: extra.marginInr === undefined ? null : equity / extra.marginInr,
    estimatedFills: extra.estimatedFills,
  };
}

function sharpe(daily: readonly number[]): number | null {
  if (daily.length < 2) return null;
  const mean = daily.reduce((a, b) => a + b, 0) / daily.length;
  const variance = daily.reduce((a, b) => a + (b - mean) ** 2, 0) / (daily.length - 1);
  const std = Math.sqrt(variance);
  return std > 0 ? (mean / std) * Math.sqrt(252) : null;
}

/**
 * Half the typical bid-ask of the spread, points: the median of (BUY − SELL) / 2 over the
 * minutes that recorded both sides, else `fallback` (half the legs' ticks).
 */
export function typicalHalfSpread(
  minutes: readonly BacktestMinute[] | BacktestColumns,
  fallback: number,
): number {
  const columns = Array.isArray(minutes)
    ? {
        buy: (minutes as readonly BacktestMinute[]).map((m) => m.buy ?? Number.NaN),
        sell: (minutes as readonly BacktestMinute[]).map((m) => m.sell ?? Number.NaN),
      }
    : (minutes as BacktestColumns);
  const halves = new Float64Array(columns.buy.length);
  let n = 0;
  for (let i = 0; i < halves.length; i++) {
    const half = ((columns.buy[i] as number) - (columns.sell[i] as number)) / 2;
    if (Number.isFinite(half)) halves[n++] = half;
  }
  if (n === 0) return fallback;
  return kthSmallest(halves.subarray(0, n), Math.floor((n - 1) / 2));
}

/**
 * The value sorting `values` would put at index k (values reordered, none NaN): Hoare's
 * selection, O(n) on average, where sorting a year of minutes to read its median cost a third
 * of a backtest's CPU on the server.
 */
export function kthSmallest(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    // The median of three as the pivot: sorted or constant runs stay O(n).
    const mid = (lo + hi) >>> 1;
    const a = values[lo] as number;
    const b = values[mid] as number;
    const c = values[hi] as number;
    const pivot = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((values[i] as number) < pivot) i++;
      while ((values[j] as number) > pivot) j--;
      if (i <= j) {
        const swap = values[i] as number;
        values[i] = values[j] as number;
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k] as number;
}

/** Why a rule cannot run, as [field, sentence]; undefined when it can. */
export function ruleProblem(rule: SpreadRule): [string, string] | undefined {
  const { sellAbove, buyBelow, exitShortAt, exitLongAt } = rule;
  if (sellAbove === undefined && buyBelow === undefined)
    return ["sellAbove", "sellAbove or buyBelow is required: a rule needs an entry"];
  if (sellAbove !== undefined && buyBelow !== undefined && buyBelow >= sellAbove)
    return ["buyBelow", "buyBelow must be below sellAbove"];
  if (sellAbove !== undefined && exitShortAt !== undefined && exitShortAt >= sellAbove)
    return ["exitShortAt", "exitShortAt must be below sellAbove: a short is bought back lower"];
  if (buyBelow !== undefined && exitLongAt !== undefined && exitLongAt <= buyBelow)
    return ["exitLongAt", "exitLongAt must be above buyBelow: a long is sold higher"];
  if (rule.metric === "percentile") {
    for (const field of ["sellAbove", "buyBelow", "exitShortAt", "exitLongAt"] as const) {
      const v = rule[field];
      if (v !== undefined && (v < 0 || v > 100))
        return [field, `${field} must be a percentile from 0 to 100`];
    }
  }
  return undefined;
}

const CSV_HEADER =
  "side,entry_at,entry_at_iso,entry,exit_at,exit_at_iso,exit,reason,gross_inr,costs_inr,net_inr";

/** The trades as CSV: numbers and fixed words only, so no cell can read as a formula. */
export function backtestTradesCsv(trades: readonly BacktestTrade[]): string {
  const iso = (ms: number) => new Date(ms).toISOString();
  const lines = [CSV_HEADER];
  for (const t of trades) {
    lines.push(
      [
        t.side,
        t.entryAt,
        iso(t.entryAt),
        t.entry,
        t.exitAt,
        iso(t.exitAt),
        t.exit,
        t.reason,
        t.grossInr.toFixed(2),
        t.costsInr.toFixed(2),
        t.netInr.toFixed(2),
      ].join(","),
    );
  }
  return `${lines.join("\n")}\n`;
}

export interface SweepAxis {
  field: RuleField;
  from: number;
  to: number;
  step: number;
}

export interface SweepCell {
  x: number;
  y: number;
  inSample: BacktestSummary;
  outOfSample: BacktestSummary;
}

/** How many values an axis takes (without making them: a sweep's size is checked first). */
export function axisLength(axis: Pick<SweepAxis, "from" | "to" | "step">): number {
  if (!(axis.step > 0) || !(axis.to >= axis.from)) return 0;
  const count = Math.floor((axis.to - axis.from) / axis.step + 1e-9) + 1;
  return Number.isFinite(count) ? count : Number.POSITIVE_INFINITY;
}

/** The values an axis takes, from `from` to `to` inclusive (to a float's rounding). */
export function axisValues(axis: Pick<SweepAxis, "from" | "to" | "step">): number[] {
  const count = axisLength(axis);
  if (!Number.isFinite(count)) return [];
  return Array.from({ length: count }, (_, i) =>
    Number((axis.from + i * axis.step).toPrecision(12)),
  );
}

/** The share of the period (by minutes) the in-sample run sees; the rest is out of sample. */
export const IN_SAMPLE_SHARE = 0.7;

/**
 * Every (x, y) of two rule fields over the first 70 % of the minutes (in sample) and the last
 * 30 % (out of sample, its statistics warmed by the minutes before it). A cell whose rule
 * cannot run (thresholds on the wrong side) is left out.
 */
export function sweepBacktest(
  minutes: readonly BacktestMinute[] | BacktestColumns | BacktestSeries,
  rule: SpreadRule,
  options: BacktestOptions,
  sweep: { x: SweepAxis; y: SweepAxis },
): SweepCell[] {
  const series = isSeries(minutes) ? minutes : backtestSeries(minutes, options);
  const split = Math.floor(series.times.length * IN_SAMPLE_SHARE);
  const all = series.times.length;
  const splitAt = split < all ? (series.times[split] as number) : Number.POSITIVE_INFINITY;
  const outOptions = { ...options, tradeFrom: splitAt };
  const cells: SweepCell[] = [];
  for (const y of axisValues(sweep.y)) {
    for (const x of axisValues(sweep.x)) {
      const cellRule = { ...rule, [sweep.x.field]: x, [sweep.y.field]: y };
      if (ruleProblem(cellRule)) continue;
      cells.push({
        x,
        y,
        inSample: runSeries(series, cellRule, options, split).summary,
        outOfSample: runSeries(series, cellRule, outOptions, all).summary,
      });
    }
  }
  return cells;
}
