/**
 * The pure half of zscore-backtest.ts: reading stored 1-minute candles (the chart's Download
 * CSV, or the JSON of GET /api/chart-data/:symbol?timeframe=1m), costing one lot with core's
 * perLot, running backtestZScore and formatting the report. Kept apart from the script so a
 * test runs it on zscore-sample.csv without spawning a process.
 */
import {
  backtestZScore,
  type CostRates,
  DEFAULT_LOTS,
  defaultCostRates,
  formatIstTimestamp,
  formatNumber,
  formatSigned,
  type LotChoice,
  type McxLotKey,
  mcxLot,
  parseChartData,
  parseSpreadSymbol,
  perLot,
  type SpreadSymbol,
  spreadDecimals,
  ZSCORE_RULES,
  type ZScoreBacktest,
  type ZScoreRules,
} from "@spreadwatch/core";

export interface Close {
  timestamp: number;
  close: number;
}

/** Candles from a chart-data JSON body or a Download CSV (timestamp_ms, else timestamp_ist). */
export function parseCandles(text: string): Close[] {
  const body = text.replace(/^\uFEFF/, "").trim();
  if (body.startsWith("{")) {
    const data = parseChartData(JSON.parse(body));
    if (data.status !== "ok") throw new Error(`chart data: ${data.status}`);
    return data.candles.map(({ timestamp, close }) => ({ timestamp, close }));
  }
  const lines = body.split(/\r?\n/);
  const header = (lines[0] ?? "").split(",").map((name) => name.trim());
  const at = (name: string) => header.indexOf(name);
  const [ms, ist, close] = [at("timestamp_ms"), at("timestamp_ist"), at("close")];
  if (close < 0 || (ms < 0 && ist < 0)) {
    throw new Error("line 1: header needs close and timestamp_ms or timestamp_ist");
  }
  const candles: Close[] = [];
  lines.forEach((line, i) => {
    if (i === 0 || line.trim() === "") return;
    // Download CSV quotes its text cells (the IST time); no cell of it holds a comma.
    const cells = line.split(",").map((cell) => cell.trim().replace(/^"(.*)"$/, "$1"));
    const timestamp = ms >= 0 ? Number(cells[ms]) : istTime(cells[ist] ?? "");
    const value = Number(cells[close]);
    if (!Number.isFinite(timestamp) || cells[close] === "" || !Number.isFinite(value)) {
      throw new Error(`line ${i + 1}: needs a time and a numeric close`);
    }
    candles.push({ timestamp, close: value });
  });
  return candles;
}

/** 'yyyy-MM-dd HH:mm' (or 'yyyy-MM-dd') read as IST (UTC+5:30, no DST). */
function istTime(text: string): number {
  if (!/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?$/.test(text)) return Number.NaN;
  return Date.parse(`${text.replace(" ", "T")}${text.length === 10 ? "T00:00" : ""}:00+05:30`);
}

/** MCX prices to cost a lot at when none is given: round levels of late 2026, ₹ per quote unit. */
export const REFERENCE_MCX_PRICES: Readonly<Record<string, number>> = {
  GC: 72_000,
  SI: 88_000,
  HG: 800,
  NG: 300,
  CL: 6000,
};
export const REFERENCE_USDINR = 84;

export interface ZScoreRun {
  symbol: SpreadSymbol;
  lot: McxLotKey;
  units: number;
  mcx: number;
  usdinr: number;
  costsPerTradeInr: number;
  rules: ZScoreRules;
  result: ZScoreBacktest;
}

export function runZScoreBacktest(
  candles: readonly Close[],
  symbol: SpreadSymbol,
  options: {
    lot?: McxLotKey;
    mcx?: number;
    usdinr?: number;
    rules?: Partial<ZScoreRules>;
    rates?: CostRates;
  } = {},
): ZScoreRun {
  const { id } = parseSpreadSymbol(symbol);
  const lot = options.lot ?? DEFAULT_LOTS[id];
  const mcx = options.mcx ?? (REFERENCE_MCX_PRICES[id] as number);
  const usdinr = options.usdinr ?? REFERENCE_USDINR;
  const choice: LotChoice = { [id]: lot };
  // The spread does not change the costs; 0 keeps perLot's gross out of the way.
  const costed = perLot(
    symbol,
    { spread: 0, mcx },
    usdinr,
    choice,
    options.rates ?? defaultCostRates(),
  );
  if (!costed) throw new Error(`lot ${lot} is not a lot of ${symbol}, or a price is not a number`);
  const rules = { ...ZSCORE_RULES, ...options.rules };
  return {
    symbol,
    lot,
    units: mcxLot(lot).units,
    mcx,
    usdinr,
    costsPerTradeInr: costed.costsInr,
    rules,
    result: backtestZScore(candles, costed.units, costed.costsInr, rules),
  };
}

/** One line per trade, then the totals per lot. */
export function formatZScoreReport(run: ZScoreRun): string[] {
  const d = spreadDecimals(run.symbol);
  const { rules, result } = run;
  const z = (v: number | undefined) =>
    v === undefined ? "end of data" : `z ${formatSigned(v, 2)}`;
  const lines = [
    `${run.symbol}, 1 lot ${run.lot} (${run.units} units), costs ${rupees(run.costsPerTradeInr)} a round trip ` +
      `(MCX ${formatNumber(run.mcx, d)}, USDINR ${formatNumber(run.usdinr, 4)})`,
    `enter at |z| ≥ ${rules.entryZ}, exit at |z| ≤ ${rules.exitZ}, ${rules.days}-day window, ` +
      `trading from ${rules.minCloses} closes`,
  ];
  for (const t of result.trades) {
    lines.push(
      `${t.side.padEnd(5)}  ${formatIstTimestamp(t.entryTime)}  ${formatSigned(t.entrySpread, d)} (${z(t.entryZ)})` +
        `  →  ${formatIstTimestamp(t.exitTime)}  ${formatSigned(t.exitSpread, d)} (${z(t.exitZ)})` +
        `  gross ${rupees(t.grossInr)}  net ${rupees(t.netInr)}`,
    );
  }
  lines.push(
    `${result.trades.length} trade${result.trades.length === 1 ? "" : "s"} over ${result.closes} closes; ` +
      `per lot: gross ${rupees(result.grossInr)}, costs ${rupees(result.costsInr)}, ` +
      `net ${rupees(result.netInr)}; max drawdown ${rupees(result.maxDrawdownInr)}`,
  );
  return lines;
}

/** "₹1799.10", "-₹497.30": no digit grouping, like every number core formats. */
function rupees(value: number): string {
  const text = formatNumber(Math.abs(value), 2);
  return `${value < 0 && /[1-9]/.test(text) ? "-" : ""}₹${text}`;
}
