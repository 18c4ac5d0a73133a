import { isBookSource, type Quote, type QuoteSource } from "@spreadwatch/core";
import type { KiteInstrument } from "./instruments.ts";
import type { KiteTick } from "./ticker-parser.ts";

/**
 * Kite's book from the first depth level of a full packet, with an empty side sent as `null` so
 * the hub clears it (both sides empty: the book is empty now, whatever last traded; see
 * docs/market-data.md). The last price on both sides (last-only) only for a tick that carries no
 * depth (ltp and quote modes). FX and indices take the last price. A future's quote names its
 * contract (the tradingsymbol) and expiry, so a roll shows as the contract changing.
 */
export function kiteQuote(
  key: string,
  source: QuoteSource,
  tick: KiteTick,
  receivedAt: number,
  instrument?: KiteInstrument,
): Quote | undefined {
  const ts = tick.exchangeTs ?? receivedAt;
  const contract =
    instrument?.expiry && instrument.tradingsymbol
      ? { contract: instrument.tradingsymbol, expiry: instrument.expiry }
      : {};
  if (isBookSource(source)) {
    const hasDepth = tick.bid !== undefined || tick.ask !== undefined;
    if (hasDepth)
      return { source, key, ts, bid: tick.bid ?? null, ask: tick.ask ?? null, ...contract };
    if (tick.lastPrice === undefined) return undefined;
    return {
      source,
      key,
      ts,
      bid: tick.lastPrice,
      ask: tick.lastPrice,
      lastOnly: true,
      ...contract,
    };
  }
  const mid =
    typeof tick.bid === "number" && typeof tick.ask === "number"
      ? (tick.bid + tick.ask) / 2
      : undefined;
  const price = tick.lastPrice ?? mid;
  return price === undefined ? undefined : { source, key, ts, price, ...contract };
}
