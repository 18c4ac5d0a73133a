import { emptyPrices, type Prices } from "@spreadwatch/core";

// Quotes for the market modules' unit tests: one book and one single price, at a fixed time.
export const AT = 1_700_000_000_000;
export const BOOK = { bid: 1, ask: 2, timestamp: AT };
export const PRICE = { price: 3, timestamp: AT };

/** GC and GOLD books, USDINR, XAUUSD and both indices priced; nothing else. */
export const PRICES: Prices = {
  ...emptyPrices(),
  cme: { GC: BOOK },
  mcx: { GOLD: BOOK },
  fx: { USDINR: PRICE },
  spot: { XAUUSD: PRICE },
  zerodha: { nifty50: PRICE, giftnifty: PRICE },
};
