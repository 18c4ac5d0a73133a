/**
 * When would an alert have fired over a replay file? Runs core's own crossing rule (30 s
 * cooldown, first observation only records) over the spread the replay produces.
 *
 *   pnpm exec tsx packages/core/examples/backtest-replay.ts <replay.csv> <SYMBOL> <threshold>
 *   pnpm exec tsx packages/core/examples/backtest-replay.ts packages/core/examples/gold-crossing.csv GC_BUY 550
 */
import { isSpreadSymbol } from "@spreadwatch/core";
import { backtestReplay, formatReport, parseReplayCsv } from "./replay-csv.ts";

// core compiles without Node or DOM types, so that nothing in src can do I/O by accident; this
// script is the edge that may, and declares the little of Node it uses. getBuiltinModule
// (Node ≥ 20.16) keeps `node:fs` out of the type program.
declare const console: { log(text: string): void; error(text: string): void };
declare const process: {
  argv: string[];
  exitCode?: number;
  getBuiltinModule(id: "node:fs"): { readFileSync(path: string, encoding: "utf8"): string };
};

const USAGE = "usage: backtest-replay.ts <replay.csv> <SYMBOL, e.g. GC_BUY> <threshold>";

function main(args: string[]): number {
  const [file, symbol, thresholdText] = args;
  if (file === undefined || symbol === undefined || thresholdText === undefined) {
    console.error(USAGE);
    return 2;
  }
  if (!isSpreadSymbol(symbol)) {
    console.error(`${symbol} is not a spread symbol (GC_BUY, SI_SELL, …)\n${USAGE}`);
    return 2;
  }
  const threshold = Number(thresholdText);
  if (thresholdText.trim() === "" || !Number.isFinite(threshold)) {
    console.error(`threshold "${thresholdText}" is not a number\n${USAGE}`);
    return 2;
  }
  let text: string;
  try {
    text = process.getBuiltinModule("node:fs").readFileSync(file, "utf8");
  } catch (error) {
    console.error(`${file}: ${(error as Error).message}`);
    return 1;
  }
  try {
    const quotes = parseReplayCsv(text);
    for (const line of formatReport(backtestReplay(quotes, symbol, threshold))) console.log(line);
    return 0;
  } catch (error) {
    console.error(`${file}: ${(error as Error).message}`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
