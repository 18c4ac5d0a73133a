import { type Candle, IST_OFFSET_MS } from "./candles.ts";
import { isChartSymbol } from "./chart-symbol.ts";
import { csvCell } from "./csv.ts";
import { spreadDecimals } from "./decimals.ts";
import type { Timeframe } from "./timeframe.ts";

/** The chart's overlay and error texts, exactly as the spec words them (§2, §5, §8). */
export const CHART_LOADING_TEXT = "Loading chart data...";
export const CHART_NO_DATA_TEXT = "No chart data available for this selection";
export const CHART_INVALID_DATA_TEXT = "No valid chart data available for this timeframe";
export const CHART_LOAD_ERROR_TEXT = "Failed to load chart data. Please try again.";
export const CHART_BUILD_ERROR_TEXT = "Failed to initialize chart. Please try again.";

export type ChartData =
  | { status: "no-data" }
  | { status: "invalid" }
  | { status: "ok"; candles: Candle[]; dropped: number };

/**
 * A chart data response (docs/spec.md §3, §5) as candles, oldest first.
 *
 * - No `data` array, or an empty one (a symbol with no history yet): `no-data`.
 * - Points whose close (or, lacking `close`, `value`) is not numeric, or whose timestamp is not
 *   a valid date, are dropped; if none remain: `invalid`.
 * - Numbers may come as numeric strings. A missing or non-numeric open, high or low falls back
 *   to close; high and low are then widened to cover open and close, so a candle never draws a
 *   body outside its wick.
 * - `timestamp` is epoch ms (a number or a string of digits) or an ISO-8601 string.
 * - Points are sorted by time; of two with the same timestamp the later one in the array wins.
 */
export function parseChartData(body: unknown): ChartData {
  const data = isRecord(body) ? body.data : undefined;
  if (!Array.isArray(data) || data.length === 0) return { status: "no-data" };
  const byTime = new Map<number, Candle>();
  let sorted = true;
  let previous = Number.NEGATIVE_INFINITY;
  for (const item of data) {
    const candle = parsePoint(item);
    if (!candle) continue;
    if (candle.timestamp <= previous) sorted = false;
    previous = candle.timestamp;
    byTime.delete(candle.timestamp);
    byTime.set(candle.timestamp, candle);
  }
  if (byTime.size === 0) return { status: "invalid" };
  const candles = [...byTime.values()];
  if (!sorted) candles.sort((a, b) => a.timestamp - b.timestamp);
  return { status: "ok", candles, dropped: data.length - candles.length };
}

/** The overlay text for a parse result, or undefined when there is a chart to draw. */
export function chartDataText(data: ChartData): string | undefined {
  if (data.status === "no-data") return CHART_NO_DATA_TEXT;
  if (data.status === "invalid") return CHART_INVALID_DATA_TEXT;
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function parsePoint(item: unknown): Candle | undefined {
  if (!isRecord(item)) return undefined;
  const timestamp = parseTime(item.timestamp);
  const close = parseNumber(item.close !== undefined ? item.close : item.value);
  if (timestamp === undefined || close === undefined) return undefined;
  const open = parseNumber(item.open) ?? close;
  const high = parseNumber(item.high) ?? close;
  const low = parseNumber(item.low) ?? close;
  return {
    timestamp,
    open,
    high: Math.max(open, high, low, close),
    low: Math.min(open, high, low, close),
    close,
  };
}

function parseNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  // Number("") and Number("  ") are 0, which would turn a blank cell into a price.
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

/** Beyond ±8.64e15 ms a Date is invalid. */
const MAX_TIME_MS = 8.64e15;

function parseTime(value: unknown): number | undefined {
  let ms: number | undefined;
  if (typeof value === "number") ms = value;
  else if (typeof value === "string" && /^\s*-?\d+\s*$/.test(value)) ms = Number(value);
  else if (typeof value === "string") ms = Date.parse(value);
  return ms !== undefined && Number.isFinite(ms) && Math.abs(ms) <= MAX_TIME_MS ? ms : undefined;
}

export const CHART_CSV_HEADER = "timestamp_ist,timestamp_ms,open,high,low,close";

/**
 * The loaded candles as CSV for "Download CSV": header CHART_CSV_HEADER, one line per candle,
 * lines ending in "\n". `timestamp_ist` is the candle's start in IST for people reading the
 * file ('yyyy-MM-dd' for 1d candles, whose start is an IST midnight, else 'yyyy-MM-dd HH:mm');
 * `timestamp_ms` is exact for programs. Cells go through csvCell like every CSV's: the IST time
 * is quoted text, prices bare numbers. Prices carry the symbol's spread decimals (4 for
 * copper, else 2); a user spread's (SP7_BUY: a ratio near 0.84 as well as a calendar of
 * hundreds of rupees) as many as six significant digits of its largest value need, from 2 to 8.
 * A non-finite value is an empty cell.
 */
export function candlesToCsv(
  symbol: string,
  timeframe: Timeframe,
  candles: readonly Candle[],
): string {
  const decimals = isChartSymbol(symbol) ? spreadDecimals(symbol) : significantDecimals(candles);
  const price = (v: number) => csvCell(v, decimals);
  const lines = [CHART_CSV_HEADER];
  for (const c of candles) {
    const ist = Number.isFinite(c.timestamp) ? istCsvTime(c.timestamp, timeframe) : undefined;
    lines.push(
      [
        csvCell(ist),
        csvCell(c.timestamp),
        price(c.open),
        price(c.high),
        price(c.low),
        price(c.close),
      ].join(","),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Decimals that show six significant digits of the largest finite value, from 2 to 8. */
function significantDecimals(candles: readonly Candle[]): number {
  let largest = 0;
  for (const c of candles)
    for (const v of [c.open, c.high, c.low, c.close])
      if (Number.isFinite(v) && Math.abs(v) > largest) largest = Math.abs(v);
  if (largest === 0) return 2;
  return Math.min(8, Math.max(2, 6 - Math.ceil(Math.log10(largest))));
}

/** "GC_BUY-1h.csv": the download's file name. */
export function chartCsvFileName(symbol: string, timeframe: Timeframe): string {
  return `${symbol}-${timeframe}.csv`;
}

function istCsvTime(epochMs: number, timeframe: Timeframe): string {
  const shifted = new Date(epochMs + IST_OFFSET_MS);
  if (Number.isNaN(shifted.getTime())) return "";
  // toISOString of the shifted instant reads as IST wall time: "2026-11-21T23:24:00.000Z".
  const iso = shifted.toISOString();
  const date = iso.slice(0, iso.indexOf("T"));
  return timeframe === "1d"
    ? date
    : `${date} ${iso.slice(iso.indexOf("T") + 1, iso.indexOf("T") + 6)}`;
}
