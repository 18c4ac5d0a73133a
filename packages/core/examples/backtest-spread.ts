/**
 * A spread rule tried on one-minute closes of its BUY and SELL sides (docs/backtest.md), printing
 * the summary POST /api/backtests gives for the same candles, as JSON; --trades adds the trades'
 * CSV. Input: a CSV with timestamp_ms (or timestamp_ist), buy, sell (and/or mid) columns, or the
 * chart's BUY download with --sell the SELL download. Costs, units and margin of one lot are the
 * figures the API used (its positions' per-lot figures at today's prices).
 *
 *   pnpm --filter @spreadwatch/core exec tsx examples/backtest-spread.ts <minutes.csv>
 *     [--sell GC_SELL-1m.csv] --units 100 --costs 1799.1 [--margin 1175900] [--tick 0.5]
 *     --metric spread|z|percentile [--sell-above N] [--buy-below N] [--exit-short N]
 *     [--exit-long N] [--target INR] [--stop INR] [--max-hold MIN] [--cooldown MIN] [--lots N]
 *     [--slippage TICKS] [--days 5|20|60] [--half-spread POINTS] [--trades]
 */
import { backtestTradesCsv, ruleProblem } from "@spreadwatch/core";
import { isMetric, parseMinutes, runSpreadBacktest } from "./spread-backtest-csv.ts";

// core has no Node types (see backtest-replay.ts); this script is the edge that reads a file.
declare const console: { log(text: string): void; error(text: string): void };
declare const process: {
  argv: string[];
  exitCode?: number;
  getBuiltinModule(id: "node:fs"): { readFileSync(path: string, encoding: "utf8"): string };
};

const USAGE =
  "usage: backtest-spread.ts <minutes.csv> [--sell SELL.csv] --units N --costs INR [--margin INR] " +
  "[--tick POINTS] --metric spread|z|percentile [--sell-above N] [--buy-below N] [--exit-short N] " +
  "[--exit-long N] [--target INR] [--stop INR] [--max-hold MIN] [--cooldown MIN] [--lots N] " +
  "[--slippage TICKS] [--days N] [--half-spread POINTS] [--trades]";

const NUMBERS = {
  "--units": "units",
  "--costs": "costs",
  "--margin": "margin",
  "--tick": "tick",
  "--sell-above": "sellAbove",
  "--buy-below": "buyBelow",
  "--exit-short": "exitShortAt",
  "--exit-long": "exitLongAt",
  "--target": "targetInr",
  "--stop": "stopInr",
  "--max-hold": "maxHoldMinutes",
  "--cooldown": "cooldownMinutes",
  "--lots": "lots",
  "--slippage": "slippageTicks",
  "--days": "days",
  "--half-spread": "halfSpread",
} as const;

function main(args: string[]): number {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--trades") flags.set(arg, "");
    else if (arg.startsWith("--")) flags.set(arg, args[++i] ?? "");
    else positional.push(arg);
  }
  const [file] = positional;
  if (file === undefined) return fail(USAGE, 2);
  const n: Partial<Record<(typeof NUMBERS)[keyof typeof NUMBERS], number>> = {};
  for (const [flag, name] of Object.entries(NUMBERS)) {
    const text = flags.get(flag);
    if (text === undefined) continue;
    const value = Number(text);
    if (text.trim() === "" || !Number.isFinite(value))
      return fail(`${flag} "${text}" is not a number`, 2);
    n[name] = value;
  }
  const metric = flags.get("--metric") ?? "";
  if (!isMetric(metric)) return fail(`--metric must be spread, z or percentile\n${USAGE}`, 2);
  if (n.units === undefined || n.costs === undefined)
    return fail(`--units and --costs are required\n${USAGE}`, 2);
  const rule = {
    sellAbove: n.sellAbove,
    buyBelow: n.buyBelow,
    exitShortAt: n.exitShortAt,
    exitLongAt: n.exitLongAt,
    targetInr: n.targetInr,
    stopInr: n.stopInr,
    maxHoldMinutes: n.maxHoldMinutes,
    cooldownMinutes: n.cooldownMinutes,
    lots: n.lots ?? 1,
    slippageTicks: n.slippageTicks ?? 0,
  };
  const problem = ruleProblem({ ...rule, metric });
  if (problem) return fail(problem[1], 2);
  const fs = process.getBuiltinModule("node:fs");
  try {
    const sell = flags.get("--sell");
    const minutes = parseMinutes(
      fs.readFileSync(file, "utf8"),
      sell === undefined ? undefined : fs.readFileSync(sell, "utf8"),
    );
    const result = runSpreadBacktest(minutes, {
      metric,
      rule,
      units: n.units,
      costsPerLotInr: n.costs,
      marginPerLotInr: n.margin,
      tickPoints: n.tick,
      halfSpread: n.halfSpread,
      days: n.days,
    });
    console.log(JSON.stringify(result.summary, null, 2));
    if (flags.has("--trades")) console.log(backtestTradesCsv(result.trades));
    return 0;
  } catch (error) {
    return fail(`${file}: ${(error as Error).message}`, 1);
  }
}

function fail(message: string, code: number): number {
  console.error(message);
  return code;
}

process.exitCode = main(process.argv.slice(2));
