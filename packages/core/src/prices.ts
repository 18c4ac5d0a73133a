import { isInstrumentKey } from "./catalogue.ts";
import type { InstrumentId, McxKey } from "./instrument.ts";
import { isQuoteSource, type Quote, type QuoteSource } from "./quote.ts";

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

/** Which exchange contract a key's prices are of, and its last trading day. */
export interface ContractEntry {
  contract: string;
  expiry?: string;
}

/**
 * The `GET /api/prices` shape (docs/design.md §3); `timestamp` is the newest quote's time. The
 * fifteen built-in keys keep their places; every other instrument in use is listed under its
 * exchange's group by its key (GOLD@next and ZINC under mcx, BZ under cme). `contracts` says
 * which contract each future's prices are of, where the feed knows it.
 */
export interface Prices {
  cme: Partial<Record<InstrumentId | (string & {}), BookEntry>>;
  mcx: Partial<Record<McxKey | (string & {}), BookEntry>>;
  spot: Partial<Record<SpotKey | (string & {}), PriceEntry>>;
  zerodha: { nifty50?: PriceEntry; giftnifty?: PriceEntry; [key: string]: PriceEntry | undefined };
  fx: { USDINR?: PriceEntry; [key: string]: PriceEntry | undefined };
  contracts?: Partial<Record<string, ContractEntry>>;
  timestamp: number | null;
}

export function emptyPrices(): Prices {
  return { cme: {}, mcx: {}, spot: {}, zerodha: {}, fx: {}, timestamp: null };
}

const INDEX_FIELD = { NIFTY50: "nifty50", GIFTNIFTY: "giftnifty" } as const;

/** The field a single-price quote lands in: NIFTY 50 and GIFT NIFTY keep their spec names. */
export function priceField(key: string): string {
  return INDEX_FIELD[key as keyof typeof INDEX_FIELD] ?? key;
}

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

/** Records the contract a quote names, replacing the entry only when it changed. */
function noteContract(prices: Prices, quote: Quote): void {
  if (!quote.contract) return;
  const known = prices.contracts?.[quote.key];
  if (known?.contract === quote.contract && known.expiry === quote.expiry) return;
  prices.contracts ??= {};
  prices.contracts[quote.key] = {
    contract: quote.contract,
    ...(quote.expiry !== undefined && { expiry: quote.expiry }),
  };
}

/** Whether a quote's side says something: a price, or null (the side is gone). */
function saysSide(side: number | null | undefined): boolean {
  return side === null || finite(side) !== undefined;
}

/**
 * Folds one quote into the prices, in place. A book quote that leaves one side out keeps the
 * other side's last value, as exchange feeds send partial updates; a side sent as `null` is
 * cleared, never kept, so an emptied side cannot leave a stale price behind. Returns false (and
 * changes nothing) for a malformed key or source, or a quote with no usable price. Whether the key
 * is an instrument in use is the caller's question (the hub asks its catalogue).
 */
export function applyQuote(prices: Prices, quote: Quote): boolean {
  if (!isQuoteSource(quote.source) || !isInstrumentKey(quote.key) || !Number.isFinite(quote.ts))
    return false;
  if (quote.source === "cme" || quote.source === "mcx") {
    if (!saysSide(quote.bid) && !saysSide(quote.ask)) return false;
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
    if (quote.source === "spot") prices.spot[quote.key] = entry;
    else if (quote.source === "fx") prices.fx[quote.key] = entry;
    else prices.zerodha[priceField(quote.key)] = entry;
  }
  noteContract(prices, quote);
  prices.timestamp = Math.max(prices.timestamp ?? quote.ts, quote.ts);
  return true;
}

const SECTION_OF = { cme: "cme", mcx: "mcx", spot: "spot", index: "zerodha", fx: "fx" } as const;

/** Forgets a key's price and contract (an instrument taken out of use); true if it had one. */
export function removePrice(prices: Prices, source: QuoteSource, key: string): boolean {
  const section = prices[SECTION_OF[source]] as Record<string, unknown>;
  const field = source === "index" ? priceField(key) : key;
  const had = field in section;
  delete section[field];
  if (prices.contracts) delete prices.contracts[key];
  return had;
}

/**
 * A key's book wherever it is listed, for a formula's leg: a future's bid and ask, or a single
 * price (spot, index, FX) as both sides. Keys are unique across groups.
 */
export function bookIn(prices: Prices, key: string): { bid?: number; ask?: number } | undefined {
  const book = prices.mcx[key] ?? prices.cme[key];
  if (book) return book;
  const single = prices.fx[key] ?? prices.spot[key] ?? prices.zerodha[priceField(key)];
  return single && { bid: single.price, ask: single.price };
}
