/**
 * A z-score mean-reversion backtest of one spread over stored 1-minute candles, one lot, net of
 * the costs of both legs (packages/core/README.md). Input: the chart's Download CSV (1m) or the
 * JSON of GET /api/chart-data/<SYMBOL>?timeframe=1m. The symbol is read from a file named like the
 * download ("GC_BUY-1m.csv") unless given.
 *
 *   pnpm --filter @spreadwatch/core exec tsx examples/zscore-backtest.ts <candles.csv> [SYMBOL]
 *     [--lot GOLDM] [--mcx 72000] [--usdinr 84] [--entry 2] [--exit 0.5] [--days 20] [--min-closes 30]
 *   pnpm --filter @spreadwatch/core exec tsx examples/zscore-backtest.ts examples/zscore-sample.csv GC_BUY
 */
import {
  isMcxLotKey,
  isSpreadSymbol,
  type SpreadSymbol,
  type ZScoreRules,
} from "@spreadwatch/core";
import { formatZScoreReport, parseCandles, runZScoreBacktest } from "./zscore-csv.ts";

// core has no Node types (see backtest-replay.ts); this script is the edge that reads a file.
declare const console: { log(text: string): void; error(text: string): void };
declare const process: {
  argv: string[];
  exitCode?: number;
  getBuiltinModule(id: "node:fs"): { readFileSync(path: string, encoding: "utf8"): string };
};

const USAGE =
  "usage: zscore-backtest.ts <candles.csv|json> [SYMBOL] [--lot KEY] [--mcx PRICE] [--usdinr RATE] " +
  "[--entry Z] [--exit Z] [--days N] [--min-closes N]";

const NUMBER_FLAGS = ["--mcx", "--usdinr", "--entry", "--exit", "--days", "--min-closes"] as const;

function main(args: string[]): number {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg.startsWith("--")) flags.set(arg, args[++i] ?? "");
    else positional.push(arg);
  }
  const [file, symbolArg] = positional;
  if (file === undefined) return fail(USAGE, 2);
  const symbol = symbolArg ?? /([A-Z]{2}_(?:BUY|SELL))[^/\\]*$/.exec(file)?.[1];
  if (symbol === undefined || !isSpreadSymbol(symbol)) {
    return fail(`give a spread symbol (GC_BUY, SI_SELL, …)\n${USAGE}`, 2);
  }
  const numbers: Record<string, number> = {};
  for (const flag of NUMBER_FLAGS) {
    const text = flags.get(flag);
    if (text === undefined) continue;
    const value = Number(text);
    if (text.trim() === "" || !Number.isFinite(value))
      return fail(`${flag} "${text}" is not a number`, 2);
    numbers[flag] = value;
  }
  const lot = flags.get("--lot");
  if (lot !== undefined && !isMcxLotKey(lot))
    return fail(`--lot "${lot}" is not an MCX lot (GOLD, GOLDM, …)`, 2);
  let text: string;
  try {
    text = process.getBuiltinModule("node:fs").readFileSync(file, "utf8");
  } catch (error) {
    return fail(`${file}: ${(error as Error).message}`, 1);
  }
  try {
    const rules: Partial<ZScoreRules> = {};
    if (numbers["--entry"] !== undefined) rules.entryZ = numbers["--entry"];
    if (numbers["--exit"] !== undefined) rules.exitZ = numbers["--exit"];
    if (numbers["--days"] !== undefined) rules.days = numbers["--days"];
    if (numbers["--min-closes"] !== undefined) rules.minCloses = numbers["--min-closes"];
    const run = runZScoreBacktest(parseCandles(text), symbol as SpreadSymbol, {
      ...(lot !== undefined && { lot }),
      ...(numbers["--mcx"] !== undefined && { mcx: numbers["--mcx"] }),
      ...(numbers["--usdinr"] !== undefined && { usdinr: numbers["--usdinr"] }),
      rules,
    });
    for (const line of formatZScoreReport(run)) console.log(line);
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
