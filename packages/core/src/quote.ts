import { INSTRUMENT_IDS, MCX_KEYS } from "./instrument.ts";

export const QUOTE_KEYS = {
  cme: INSTRUMENT_IDS,
  mcx: MCX_KEYS,
  spot: ["XAUUSD", "XAGUSD"],
  index: ["NIFTY50", "GIFTNIFTY"],
  fx: ["USDINR"],
} as const;

export type QuoteSource = keyof typeof QUOTE_KEYS;
export const QUOTE_SOURCES = Object.keys(QUOTE_KEYS) as QuoteSource[];

/** Futures books carry bid/ask; spot, index and FX carry a single price. */
export function isBookSource(source: QuoteSource): source is "cme" | "mcx" {
  return source === "cme" || source === "mcx";
}

/**
 * One price update from a feed (docs/design.md §4). `ts` is epoch milliseconds, the quote's own time.
 * A book side left out (undefined) is unchanged: exchange feeds send partial updates. A side set
 * to `null` is empty now (nobody bids, say): it clears the side instead of keeping an old price.
 */
export interface Quote {
  source: QuoteSource;
  key: string;
  bid?: number | null;
  ask?: number | null;
  price?: number;
  ts: number;
  /** The source publishes this price late on purpose (e.g. Yahoo's 10–15 minute delay). */
  delayed?: boolean;
  /** No book was given: `bid` and `ask` (or `price`) are the last traded price. */
  lastOnly?: boolean;
  /** The exchange contract this price is of (GOLD26FEBFUT), where the feed knows it. */
  contract?: string;
  /** That contract's last trading day, YYYY-MM-DD. */
  expiry?: string;
}

export function isQuoteSource(value: string): value is QuoteSource {
  return Object.hasOwn(QUOTE_KEYS, value);
}

/**
 * Whether `key` is one of the fifteen built-in keys of `source`. Other catalogue keys
 * (docs/instruments.md) are checked against the instruments in use by the hub, not here.
 * False, not a throw, for a source outside the union too: replay files and request bodies hand
 * this function strings typed as QuoteSource before anything has checked them.
 */
export function isKnownQuoteKey(source: QuoteSource, key: string): boolean {
  if (!Object.hasOwn(QUOTE_KEYS, source)) return false;
  return (QUOTE_KEYS[source] as readonly string[]).includes(key);
}
