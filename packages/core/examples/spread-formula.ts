/**
 * A spread formula over a replay CSV, evaluated exactly as the server does (docs/formulas.md):
 * BUY, SELL and mid after every quote that changes them.
 *
 *   pnpm exec tsx packages/core/examples/spread-formula.ts <replay.csv> "<formula>" <leg=KEY>… [--decimals N]
 *   pnpm exec tsx packages/core/examples/spread-formula.ts packages/core/examples/gold-calendar.csv "a - b" a=GOLD b=GOLD@next
 */
import { definitionOf, formatPoints, parseLeg, replayFormula } from "./formula-replay.ts";
import { parseReplayCsv } from "./replay-csv.ts";

// The script is the edge that may do I/O (see backtest-replay.ts): the little of Node it uses.
declare const console: { log(text: string): void; error(text: string): void };
declare const process: {
  argv: string[];
  exitCode?: number;
  getBuiltinModule(id: "node:fs"): { readFileSync(path: string, encoding: "utf8"): string };
};

const USAGE = 'usage: spread-formula.ts <replay.csv> "<formula>" <leg=KEY>… [--decimals N]';

function main(args: string[]): number {
  const decimalsAt = args.indexOf("--decimals");
  const decimals = decimalsAt >= 0 ? Number(args[decimalsAt + 1]) : 2;
  const rest =
    decimalsAt >= 0 ? args.filter((_, i) => i !== decimalsAt && i !== decimalsAt + 1) : args;
  const [file, formula, ...legTexts] = rest;
  if (file === undefined || formula === undefined || legTexts.length === 0 || !(decimals >= 0)) {
    console.error(USAGE);
    return 2;
  }
  try {
    const definition = definitionOf(formula, legTexts.map(parseLeg));
    const quotes = parseReplayCsv(process.getBuiltinModule("node:fs").readFileSync(file, "utf8"));
    for (const line of formatPoints(replayFormula(quotes, definition), decimals)) console.log(line);
    return 0;
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
