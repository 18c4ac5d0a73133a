import type { InstrumentId, McxKey } from "./instrument.ts";
import { isKnownQuoteKey, type Quote } from "./quote.ts";

/** Present (and true) only when the quote said so, so a live feed's entries keep the plain shape. */
export interface QuoteMarks {
  delayed?: true;
  lastOnly?: true;
}

export interface BookEntry extends QuoteMarks {
  bid?: number;
  ask?: number;
  timestamp: number;
}

export interface PriceEntry extends QuoteMarks {
  price: number;
  timestamp: number;
}

export const SPOT_KEYS = ["XAUUSD", "XAGUSD"] as const;
export type SpotKey = (typeof SPOT_KEYS)[number];

/** The `GET /api/prices` shape (docs/design.md §3); `timestamp` is the newest quote's time. */
export interface Prices {
  cme: Partial<Record<InstrumentId, BookEntry>>;
  mcx: Partial<Record<McxKey, BookEntry>>;
  spot: Partial<Record<SpotKey, PriceEntry>>;
  zerodha: { nifty50?: PriceEntry; giftnifty?: PriceEntry };
  fx: { USDINR?: PriceEntry };
  timestamp: number | null;
}

export function emptyPrices(): Prices {
  return { cme: {}, mcx: {}, spot: {}, zerodha: {}, fx: {}, timestamp: null };
}

const INDEX_FIELD = { NIFTY50: "nifty50", GIFTNIFTY: "giftnifty" } as const;

function marksOf(quote: Quote): QuoteMarks {
  const marks: QuoteMarks = {};
  if (quote.delayed) marks.delayed = true;
  if (quote.lastOnly) marks.lastOnly = true;
  return marks;
}

function finite(value: number | null | undefined): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/**
 * A side's next value: a price replaces it, `null` (the side is empty now) clears it, and a side
 * the quote leaves out (or a non-finite number, which is no price) keeps the last value.
 */
function nextSide(given: number | null | undefined, previous: number | undefined) {
  if (given === null) return undefined;
  return finite(given) ?? previous;
}

/**
 * Folds one quote into the prices, in place. A book quote that leaves one side out keeps the
 * other side's last value, as exchange feeds send partial updates; a side sent as `null` is
 * cleared, never kept, so an emptied side cannot leave a stale price behind. Returns false (and
 * changes nothing) for an unknown key or a quote with no usable price.
 */
export function applyQuote(prices: Prices, quote: Quote): boolean {
  if (!isKnownQuoteKey(quote.source, quote.key) || !Number.isFinite(quote.ts)) return false;
  if (quote.source === "cme" || quote.source === "mcx") {
    const says = (side: number | null | undefined) => side === null || finite(side) !== undefined;
    if (!says(quote.bid) && !says(quote.ask)) return false;
    const books = prices[quote.source] as Record<string, BookEntry>;
    const previous = books[quote.key];
    const entry: BookEntry = { timestamp: quote.ts, ...marksOf(quote) };
    const nextBid = nextSide(quote.bid, previous?.bid);
    const nextAsk = nextSide(quote.ask, previous?.ask);
    if (nextBid !== undefined) entry.bid = nextBid;
    if (nextAsk !== undefined) entry.ask = nextAsk;
    books[quote.key] = entry;
  } else {
    const price = finite(quote.price);
    if (price === undefined) return false;
    const entry: PriceEntry = { price, timestamp: quote.ts, ...marksOf(quote) };
    if (quote.source === "spot") prices.spot[quote.key as SpotKey] = entry;
    else if (quote.source === "fx") prices.fx.USDINR = entry;
    else prices.zerodha[INDEX_FIELD[quote.key as keyof typeof INDEX_FIELD]] = entry;
  }
  prices.timestamp = Math.max(prices.timestamp ?? quote.ts, quote.ts);
  return true;
}
