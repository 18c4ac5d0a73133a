import { readFileSync } from "node:fs";
import {
  groupOfExchange,
  isBookSource,
  isInstrumentKey,
  QUOTE_SOURCES,
  type Quote,
  type QuoteSource,
  shippedInstrument,
} from "@spreadwatch/core";
import { parse } from "csv-parse/sync";

export const REPLAY_COLUMNS = ["ts", "source", "key", "bid", "ask", "price"] as const;

/** A replay file that cannot be played; the message names the file and, where known, the line. */
export class ReplayFileError extends Error {
  override name = "ReplayFileError";
}

/**
 * Optional: the exchange contract a future's row is of and its last trading day (docs/operations.md
 * "Replay files").
 */
export const REPLAY_CONTRACT_COLUMNS = ["contract", "expiry"] as const;

type Row = Partial<
  Record<(typeof REPLAY_COLUMNS)[number] | (typeof REPLAY_CONTRACT_COLUMNS)[number], string>
>;

/** Parses `ts` as epoch milliseconds (all digits) or an ISO-8601 date-time. */
export function parseTimestamp(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

function parseNumber(text: string | undefined, column: string): number | undefined {
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new Error(`${column} "${text}" is not a number`);
  return value;
}

function rowToQuote(row: Row, previousTs: number | undefined): Quote {
  const ts = parseTimestamp(row.ts ?? "");
  if (ts === undefined)
    throw new Error(`ts "${row.ts ?? ""}" is neither ISO-8601 nor epoch milliseconds`);
  if (previousTs !== undefined && ts < previousTs)
    throw new Error("rows must be in time order (ts goes back)");
  const source = row.source as QuoteSource;
  if (!QUOTE_SOURCES.includes(source)) {
    throw new Error(`source "${row.source ?? ""}" is not one of ${QUOTE_SOURCES.join(", ")}`);
  }
  // Any catalogue key (docs/instruments.md); rows of keys not in use are dropped by the hub.
  const key = row.key ?? "";
  if (!isInstrumentKey(key))
    throw new Error(`key "${key}" is not an instrument key such as GOLD, GOLD@next or ZINC`);
  const shipped = shippedInstrument(key);
  const group = shipped && groupOfExchange(shipped.exchange);
  if (group && group !== source) throw new Error(`key "${key}" is a ${group} key, not ${source}`);
  const quote: Quote = { source, key, ts };
  if (isBookSource(source)) {
    const bid = parseNumber(row.bid, "bid");
    const ask = parseNumber(row.ask, "ask");
    if (bid === undefined && ask === undefined) throw new Error(`a ${source} row needs bid or ask`);
    if (bid !== undefined) quote.bid = bid;
    if (ask !== undefined) quote.ask = ask;
  } else {
    const price = parseNumber(row.price, "price");
    if (price === undefined) throw new Error(`a ${source} row needs price`);
    quote.price = price;
  }
  if (row.contract) {
    if (!/^[A-Z0-9][A-Z0-9._-]{0,39}$/.test(row.contract))
      throw new Error(`contract "${row.contract}" is not a contract name such as GOLD26FEBFUT`);
    quote.contract = row.contract;
  }
  if (row.expiry) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(row.expiry) || Number.isNaN(Date.parse(row.expiry)))
      throw new Error(`expiry "${row.expiry}" is not a date YYYY-MM-DD`);
    quote.expiry = row.expiry;
  }
  return quote;
}

/** Reads and validates a whole replay CSV (docs/design.md §4) so a bad file stops the start, not the replay. */
export function readReplayFile(file: string): Quote[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === "ENOENT" ? "file not found" : String(error);
    throw new ReplayFileError(`Replay file ${file}: ${reason}`);
  }
  let records: Array<{ record: Row; info: { lines: number } }>;
  try {
    records = parse(text, {
      columns: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      bom: true,
    });
  } catch (error) {
    const lines = (error as { lines?: number }).lines;
    throw new ReplayFileError(
      `Replay file ${file}: ${lines ? `line ${lines}: ` : ""}${(error as Error).message}`,
    );
  }
  const header =
    text
      .split(/\r?\n/, 1)[0]
      ?.replace(/^\uFEFF/, "")
      .split(",")
      .map((c) => c.trim()) ?? [];
  const missing = REPLAY_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length > 0) {
    throw new ReplayFileError(
      `Replay file ${file}: line 1: header lacks column(s) ${missing.join(", ")} (expected ${REPLAY_COLUMNS.join(",")})`,
    );
  }
  const quotes: Quote[] = [];
  for (const { record, info } of records) {
    try {
      quotes.push(rowToQuote(record, quotes.at(-1)?.ts));
    } catch (error) {
      throw new ReplayFileError(
        `Replay file ${file}: line ${info.lines}: ${(error as Error).message}`,
      );
    }
  }
  if (quotes.length === 0)
    throw new ReplayFileError(`Replay file ${file}: no quotes after the header`);
  return quotes;
}
