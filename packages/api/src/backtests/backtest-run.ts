// A backtest as the server runs it (docs/backtest.md): the spread's one-minute BUY and SELL
// closes read from the store, its per-lot figures at today's prices, then core's backtestSpread.
import {
  type BacktestColumns,
  type BacktestOptions,
  executableSymbol,
  groupOfExchange,
  joinSides,
  type SpreadRule,
  typicalHalfSpread,
} from "@spreadwatch/core";
import type { CloseColumns } from "@spreadwatch/db";
import type { AppServices } from "../context.ts";
import { candlesFromLegHistory, ownHistoryStart } from "../history/definition-history.ts";
import { PositionError } from "../positions/position-error.ts";
import type { RegisteredSpread } from "../spreads/registry.ts";
import type { BacktestInput } from "./backtest-input.ts";
import { MAX_BACKTEST_DAYS } from "./backtest-input.ts";

/** Every minute of the longest range, and the forming one. */
const MINUTES_LIMIT = MAX_BACKTEST_DAYS * 1440 + 1;
const MAX_ROLLS = 5_000;

export interface BacktestData {
  spread: RegisteredSpread;
  /** Oldest first, as columns: a year is ~220,000 minutes, with no object per minute. */
  minutes: BacktestColumns;
  options: BacktestOptions;
}

/** The rule part of an input. */
export function ruleOf(input: BacktestInput | Omit<BacktestInput, "symbol">): SpreadRule {
  return {
    metric: input.metric,
    sellAbove: input.sellAbove,
    buyBelow: input.buyBelow,
    exitShortAt: input.exitShortAt,
    exitLongAt: input.exitLongAt,
    targetInr: input.targetInr,
    stopInr: input.stopInr,
    maxHoldMinutes: input.maxHoldMinutes,
    cooldownMinutes: input.cooldownMinutes,
    lots: input.lots,
    slippageTicks: input.slippageTicks,
  };
}

/**
 * What a backtest of `symbol` over [from, to) needs: 404 for a spread the viewer cannot see
 * (as positions), 409 when there are no live prices to cost a lot at.
 */
export async function backtestData(
  services: AppServices,
  viewer: { id: number; isAdmin: boolean },
  input: Pick<BacktestInput, "symbol" | "from" | "to" | "days">,
): Promise<BacktestData> {
  const { positions } = services;
  const spread = positions.tradable(viewer, input.symbol);
  const live = positions.side(spread, "BUY").live ?? positions.side(spread, "SELL").live;
  if (!live)
    throw new PositionError(
      "conflict",
      `No live prices for ${spread.symbol} to cost a lot at; try again when its legs are quoted`,
    );
  const costs = positions.costsPerLot(
    spread,
    executableSymbol(spread.symbol, "BUY"),
    live.value,
    live.legs,
  );
  if (!costs)
    throw new PositionError(
      "conflict",
      `The costs of a lot of ${spread.symbol} cannot be priced now`,
    );
  const [minutes, rolls, marginPerLotInr] = await Promise.all([
    readMinutes(services, spread, input),
    readRolls(services, spread, input),
    positions.marginPerLot(spread, live.legs, live.usdinr),
  ]);
  const tickPoints = tickPointsOf(spread, live.legs, (key) => positions.specOf(key));
  return {
    spread,
    minutes,
    options: {
      units: positions.unitsOf(spread),
      costsPerLotInr: costs.perLotInr,
      marginPerLotInr,
      tickPoints,
      halfSpread: typicalHalfSpread(minutes, tickPoints / 2),
      rolls,
      statsDays: input.days,
    },
  };
}

/**
 * Both sides' one-minute closes in [from, to), the forming minute included as the chart shows
 * it, joined on their times; for a user's spread, before its own candles begin, the mids its
 * legs' history gives (docs/formulas.md, "History from the legs").
 */
async function readMinutes(
  services: AppServices,
  spread: RegisteredSpread,
  input: { from: number; to: number },
): Promise<BacktestColumns> {
  const { store, recorder } = services;
  const range = { from: input.from, to: input.to };
  await recorder.writePending();
  const side = async (symbol: string): Promise<CloseColumns> => {
    const closes = await store.candles.closes({ symbol, timeframe: "1m", ...range });
    // The forming minute, as the chart shows it last.
    const forming = recorder.forming(symbol, "1m");
    if (!forming || forming.timestamp < range.from || forming.timestamp >= range.to) return closes;
    return withForming(closes, forming);
  };
  const buySymbol = executableSymbol(spread.symbol, "BUY");
  const [buy, sell] = await Promise.all([
    side(buySymbol),
    side(executableSymbol(spread.symbol, "SELL")),
  ]);
  const sides = joinSides(buy, sell);
  if (spread.builtin) return sides;
  const own = await ownHistoryStart(
    store,
    buySymbol,
    "1m",
    spread,
    recorder.forming(buySymbol, "1m"),
  );
  if (range.from >= own) return sides;
  const mids = await candlesFromLegHistory(
    store,
    spread,
    "1m",
    { from: range.from, to: Math.min(range.to, own), limit: MINUTES_LIMIT },
    (key, timeframe) => recorder.formingLeg(key, timeframe),
  );
  // The legs' mids first, then the recorded sides (core orders them if they overlap).
  const n = mids.length;
  const total = n + sides.times.length;
  const times = new Float64Array(total);
  const buys = new Float64Array(total).fill(Number.NaN);
  const sells = new Float64Array(total).fill(Number.NaN);
  const mid = new Float64Array(total).fill(Number.NaN);
  mids.forEach((c, i) => {
    times[i] = c.timestamp;
    mid[i] = c.close;
  });
  times.set(sides.times, n);
  buys.set(sides.buy, n);
  sells.set(sides.sell, n);
  return { times, buy: buys, sell: sells, mid };
}

/** A side's closes with the forming candle as its last: replacing that minute or after it. */
function withForming(
  closes: CloseColumns,
  forming: { timestamp: number; close: number },
): CloseColumns {
  const n = closes.times.length;
  const last = n > 0 ? (closes.times[n - 1] as number) : Number.NEGATIVE_INFINITY;
  if (forming.timestamp === last) {
    closes.closes[n - 1] = forming.close;
    return closes;
  }
  if (forming.timestamp < last) return closes;
  const times = new Float64Array(n + 1);
  const values = new Float64Array(n + 1);
  times.set(closes.times);
  values.set(closes.closes);
  times[n] = forming.timestamp;
  values[n] = forming.close;
  return { times, closes: values };
}

async function readRolls(
  services: AppServices,
  spread: RegisteredSpread,
  range: { from: number; to: number },
): Promise<number[]> {
  const keys = new Set(spread.legs.map((leg) => leg.instrument));
  const { from, to } = range;
  const rolls = await services.store.contracts.rolls({ from, to, limit: MAX_ROLLS });
  return rolls.filter((roll) => keys.has(roll.key)).map((roll) => roll.at);
}

/**
 * Spread points one tick on every traded leg moves the spread, at these leg prices: the
 * formula's change for each futures leg's tick (conversions such as USDINR are not traded).
 */
function tickPointsOf(
  spread: RegisteredSpread,
  legPrices: Readonly<Record<string, number>>,
  specOf: (
    key: string,
  ) => { exchange: Parameters<typeof groupOfExchange>[0]; tick: number } | undefined,
): number {
  const compiled = spread.checked?.compiled;
  if (!compiled) return 0;
  const values = compiled.legs.map((name) => legPrices[name] ?? Number.NaN);
  const base = compiled.evaluate(values);
  if (base === undefined) return 0;
  let total = 0;
  compiled.legs.forEach((name, i) => {
    const instrument = spread.legs.find((leg) => leg.name === name)?.instrument;
    const spec = instrument === undefined ? undefined : specOf(instrument);
    if (!spec || !["mcx", "cme"].includes(groupOfExchange(spec.exchange))) return;
    const moved = [...values];
    moved[i] = (moved[i] as number) + spec.tick;
    const value = compiled.evaluate(moved);
    if (value !== undefined) total += Math.abs(value - base);
  });
  return total;
}
