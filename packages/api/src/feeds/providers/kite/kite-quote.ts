import { isBookSource, type Quote } from "@spreadwatch/core";
import { sourceOf } from "../quote-keys.ts";
import type { KiteTick } from "./ticker-parser.ts";

/**
 * Kite's book from the first depth level, with an empty side sent as `null` so the hub clears it;
 * the last price on both sides (last-only) when the tick has no book at all. FX and indices take
 * the last price.
 */
export function kiteQuote(key: string, tick: KiteTick, receivedAt: number): Quote | undefined {
  const source = sourceOf(key);
  const ts = tick.exchangeTs ?? receivedAt;
  if (isBookSource(source)) {
    const hasBook = typeof tick.bid === "number" || typeof tick.ask === "number";
    if (hasBook) return { source, key, ts, bid: tick.bid ?? null, ask: tick.ask ?? null };
    if (tick.lastPrice !== undefined)
      return { source, key, ts, bid: tick.lastPrice, ask: tick.lastPrice, lastOnly: true };
    // A full packet with both sides empty and no trade: the book is empty now.
    return tick.bid === null && tick.ask === null
      ? { source, key, ts, bid: null, ask: null }
      : undefined;
  }
  const mid =
    typeof tick.bid === "number" && typeof tick.ask === "number"
      ? (tick.bid + tick.ask) / 2
      : undefined;
  const price = tick.lastPrice ?? mid;
  return price === undefined ? undefined : { source, key, ts, price };
}
