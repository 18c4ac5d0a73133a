/**
 * The pure half of backtest-replay.ts: reading a replay CSV (docs/design.md §4) into quotes and
 * turning a backtest into report lines. Kept apart from the script so a test can run it on
 * gold-crossing.csv without spawning a process.
 */
import {
  type AlertFiring,
  backtestAlert,
  type Duties,
  defaultDuties,
  formatIstTimestamp,
  formatNumber,
  formatSigned,
  isBookSource,
  isInstrumentKey,
  isKnownQuoteKey,
  QUOTE_SOURCES,
  type Quote,
  type QuoteSource,
  type SpreadSymbol,
  spreadDecimals,
  spreadSeries,
  spreadSymbolLabel,
  thresholdDecimals,
} from "@spreadwatch/core";

const COLUMNS = ["ts", "source", "key", "bid", "ask", "price"] as const;
type Column = (typeof COLUMNS)[number];

/** `ts` as epoch milliseconds (all digits) or an ISO-8601 date-time, else undefined. */
export function parseTimestamp(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

function parseNumber(text: string, column: Column): number | undefined {
  if (text === "") return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new Error(`${column} "${text}" is not a number`);
  return value;
}

function rowToQuote(cell: (column: Column) => string): Quote {
  const ts = parseTimestamp(cell("ts"));
  if (ts === undefined) throw new Error(`ts "${cell("ts")}" is neither ISO-8601 nor epoch ms`);
  const source = cell("source") as QuoteSource;
  if (!QUOTE_SOURCES.includes(source)) {
    throw new Error(`source "${source}" is not one of ${QUOTE_SOURCES.join(", ")}`);
  }
  const key = cell("key");
  // Any catalogue key (ZINC, GOLD@next) may be replayed; one of the fifteen built-in keys must
  // sit under its own source, where a misplaced one is surely a typo.
  const misplaced = QUOTE_SOURCES.some((s) => s !== source && isKnownQuoteKey(s, key));
  if (!isInstrumentKey(key) || misplaced)
    throw new Error(`key "${key}" is not a known ${source} key`);
  const quote: Quote = { source, key, ts };
  const fields = isBookSource(source) ? (["bid", "ask"] as const) : (["price"] as const);
  for (const field of fields) {
    const value = parseNumber(cell(field), field);
    if (value !== undefined) quote[field] = value;
  }
  if (fields.every((field) => quote[field] === undefined)) {
    throw new Error(`a ${source} row needs ${fields.join(" or ")}`);
  }
  return quote;
}

/**
 * The quotes of a replay CSV: header `ts,source,key,bid,ask,price` (any column order), no quoted
 * fields, blank lines skipped. Throws an Error naming the line for anything a replay could not
 * play, so a typo is reported rather than silently backtested around.
 */
export function parseReplayCsv(text: string): Quote[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const header = (lines[0] ?? "").split(",").map((name) => name.trim());
  const missing = COLUMNS.filter((column) => !header.includes(column));
  if (missing.length > 0) {
    throw new Error(`line 1: header lacks ${missing.join(", ")} (expected ${COLUMNS.join(",")})`);
  }
  const index = Object.fromEntries(COLUMNS.map((c) => [c, header.indexOf(c)])) as Record<
    Column,
    number
  >;
  const quotes: Quote[] = [];
  lines.forEach((line, i) => {
    if (i === 0 || line.trim() === "") return;
    const cells = line.split(",").map((cell) => cell.trim());
    try {
      quotes.push(rowToQuote((column) => cells[index[column]] ?? ""));
    } catch (error) {
      throw new Error(`line ${i + 1}: ${(error as Error).message}`);
    }
  });
  return quotes;
}

export interface ReplayBacktest {
  symbol: SpreadSymbol;
  threshold: number;
  quotes: number;
  samples: number;
  firings: AlertFiring[];
}

/** Replays the quotes into the symbol's spread series and backtests one alert over it. */
export function backtestReplay(
  quotes: readonly Quote[],
  symbol: SpreadSymbol,
  threshold: number,
  duties: Duties = defaultDuties(),
): ReplayBacktest {
  const series = spreadSeries(quotes, symbol, duties);
  return {
    symbol,
    threshold,
    quotes: quotes.length,
    samples: series.length,
    firings: backtestAlert(series, threshold),
  };
}

/** One line per firing (IST time, direction, spread in the spec's decimals), then a summary. */
export function formatReport(result: ReplayBacktest): string[] {
  const decimals = spreadDecimals(result.symbol);
  const lines = result.firings.map(
    (f) =>
      `${formatIstTimestamp(f.ts)}  crossed ${f.side.padEnd(5)}  ${formatSigned(f.value, decimals)}`,
  );
  lines.push(
    `${spreadSymbolLabel(result.symbol)} (${result.symbol}) alert at ` +
      `${formatNumber(result.threshold, thresholdDecimals(result.symbol))}: ` +
      `${count(result.firings.length, "firing")} over ${count(result.samples, "spread change")} ` +
      `from ${count(result.quotes, "quote")}`,
  );
  return lines;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
