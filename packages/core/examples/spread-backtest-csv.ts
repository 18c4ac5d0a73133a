/**
 * The pure half of backtest-spread.ts: reading one-minute closes of a spread's BUY and SELL
 * sides from CSV, and running core's backtestSpread exactly as POST /api/backtests does (the
 * same defaults: a 20-day window, mid-only minutes at mid ± the typical half bid-ask). Kept
 * apart from the script so a test runs it without spawning a process.
 */
import {
  BACKTEST_METRICS,
  type BacktestMetric,
  type BacktestMinute,
  type BacktestResult,
  backtestSpread,
  type SpreadRule,
  typicalHalfSpread,
} from "@spreadwatch/core";

/**
 * Minutes from a CSV with a time (timestamp_ms, else timestamp_ist as 'yyyy-MM-dd HH:mm') and
 * buy and sell (or mid) columns. With `sellText`, `text` is the BUY side's chart download and
 * `sellText` the SELL side's (each with a close column), joined on their times.
 */
export function parseMinutes(text: string, sellText?: string): BacktestMinute[] {
  if (sellText !== undefined) {
    const buy = parseColumns(text, ["close"]);
    const sell = new Map(parseColumns(sellText, ["close"]).map((r) => [r.timestamp, r.close]));
    return buy
      .filter((r) => sell.has(r.timestamp))
      .map((r) => ({ timestamp: r.timestamp, buy: r.close, sell: sell.get(r.timestamp) }));
  }
  return parseColumns(text, ["buy", "sell", "mid"]).map((r) => ({
    timestamp: r.timestamp,
    ...(r.buy !== undefined && { buy: r.buy }),
    ...(r.sell !== undefined && { sell: r.sell }),
    ...(r.mid !== undefined && { mid: r.mid }),
  }));
}

type Row = { timestamp: number } & Record<string, number | undefined>;

function parseColumns(text: string, names: readonly string[]): Row[] {
  const lines = text
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r?\n/);
  const header = (lines[0] ?? "").split(",").map((name) => name.trim());
  const [ms, ist] = [header.indexOf("timestamp_ms"), header.indexOf("timestamp_ist")];
  const columns = names.map((name) => [name, header.indexOf(name)] as const);
  if ((ms < 0 && ist < 0) || columns.every(([, i]) => i < 0))
    throw new Error(`line 1: header needs timestamp_ms or timestamp_ist and ${names.join(" or ")}`);
  const rows: Row[] = [];
  lines.forEach((line, n) => {
    if (n === 0 || line.trim() === "") return;
    const cells = line.split(",").map((cell) => cell.trim());
    const timestamp = ms >= 0 ? Number(cells[ms]) : istTime(cells[ist] ?? "");
    if (!Number.isFinite(timestamp)) throw new Error(`line ${n + 1}: needs a time`);
    const row: Row = { timestamp };
    for (const [name, i] of columns) {
      const cell = i < 0 ? "" : (cells[i] ?? "");
      if (cell === "") continue;
      const value = Number(cell);
      if (!Number.isFinite(value))
        throw new Error(`line ${n + 1}: ${name} "${cell}" is not a number`);
      row[name] = value;
    }
    rows.push(row);
  });
  return rows;
}

/** 'yyyy-MM-dd HH:mm' read as IST (UTC+5:30, no DST). */
function istTime(text: string): number {
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(text)) return Number.NaN;
  return Date.parse(`${text.replace(" ", "T")}:00+05:30`);
}

export interface ScriptSettings {
  metric: BacktestMetric;
  rule: Omit<SpreadRule, "metric">;
  /** ₹ per spread point per lot, round-trip costs and margin of a lot, ₹; ticks in points. */
  units: number;
  costsPerLotInr: number;
  marginPerLotInr?: number | undefined;
  tickPoints?: number | undefined;
  halfSpread?: number | undefined;
  days?: number | undefined;
}

export function isMetric(text: string): text is BacktestMetric {
  return (BACKTEST_METRICS as readonly string[]).includes(text);
}

/** backtestSpread with the API's defaults. */
export function runSpreadBacktest(
  minutes: readonly BacktestMinute[],
  settings: ScriptSettings,
): BacktestResult {
  const tickPoints = settings.tickPoints ?? 0;
  return backtestSpread(
    minutes,
    { ...settings.rule, metric: settings.metric },
    {
      units: settings.units,
      costsPerLotInr: settings.costsPerLotInr,
      marginPerLotInr: settings.marginPerLotInr,
      tickPoints,
      halfSpread: settings.halfSpread ?? typicalHalfSpread(minutes, tickPoints / 2),
      statsDays: settings.days ?? 20,
    },
  );
}
