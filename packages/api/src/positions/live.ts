// What the hub says about a spread right now, as positions need it: the executable value of one
// side, the price each leg was taken at, whether every leg is fresh, and the contracts.
import {
  type BookEntry,
  type CalculationEntry,
  contractFor,
  type InstrumentSpec,
  isStale,
  type PriceEntry,
  type Prices,
  parseInstrumentKey,
  priceField,
} from "@spreadwatch/core";
import type { MarketHub } from "../market/hub.ts";
import type { RegisteredSpread } from "../spreads/registry.ts";

/** One side of a spread now. */
export interface LiveSide {
  value: number;
  /** Each leg's price as the side took it, by leg name. */
  legs: Record<string, number>;
  /** The built-in parities' MCX price (their per-lot costs are turnover at it). */
  mcx?: number;
  usdinr?: number;
  /** The newest quote time among the legs. */
  at: number;
}

/** The legs of a built-in parity by name (its definition's m, c, fx) from its legacy entry. */
function builtInLegs(entry: CalculationEntry): Record<string, number> {
  return { m: entry.mcx, c: entry.cme, fx: entry.usdinr };
}

function priceEntry(prices: Readonly<Prices>, key: string): BookEntry | PriceEntry | undefined {
  return (
    prices.mcx[key] ??
    prices.cme[key] ??
    prices.fx[key] ??
    prices.spot[key] ??
    prices.zerodha[priceField(key)]
  );
}

/** Whether any leg is missing, crossed or older than core's STALE_AFTER_MS (as the rows grey). */
export function legsStale(prices: Readonly<Prices>, instruments: readonly string[], now: number) {
  return instruments.some((key) => {
    const entry = priceEntry(prices, key);
    if (!entry) return true;
    const book = entry as BookEntry;
    if (book.bid !== undefined && book.ask !== undefined && book.bid > book.ask) return true;
    return isStale(entry.timestamp, now);
  });
}

function newestQuote(prices: Readonly<Prices>, instruments: readonly string[]): number {
  let at = 0;
  for (const key of instruments) at = Math.max(at, priceEntry(prices, key)?.timestamp ?? 0);
  return at;
}

/** `symbol` (GC_SELL, SP7_BUY) now, or undefined when the hub has no value for it. */
export function liveSide(
  hub: MarketHub,
  spread: RegisteredSpread,
  symbol: string,
  prices: Readonly<Prices>,
): LiveSide | undefined {
  const entry = hub.entry(symbol);
  if (!entry || !Number.isFinite(entry.spread)) return undefined;
  const at = newestQuote(
    prices,
    spread.legs.map((leg) => leg.instrument),
  );
  if ("legs" in entry) {
    const legs = Object.fromEntries(
      Object.entries(entry.legs).map(([name, leg]) => [name, leg.price]),
    );
    return { value: entry.spread, legs, at, usdinr: prices.fx.USDINR?.price };
  }
  return {
    value: entry.spread,
    legs: builtInLegs(entry),
    mcx: entry.mcx,
    usdinr: entry.usdinr,
    at,
  };
}

/** The contract each leg's quotes name now, by leg name (where the feed says). */
export function legContracts(
  prices: Readonly<Prices>,
  spread: Pick<RegisteredSpread, "legs">,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const leg of spread.legs) {
    const contract = prices.contracts?.[leg.instrument]?.contract;
    if (contract) out[leg.name] = contract;
  }
  return out;
}

/** Within this many days of a near leg's roll day a position says "expires in N days". */
export const ROLL_WARNING_DAYS = 7;

const DAY_MS = 86_400_000;
const IST_MS = 330 * 60_000;

/** Today in India, YYYY-MM-DD (MCX's calendar). */
function istToday(now: number): string {
  return new Date(now + IST_MS).toISOString().slice(0, 10);
}

/**
 * Days until the nearest roll day of the spread's near-month futures legs (first notice or
 * last trading day, the contract calendar's `rollFrom`; the feed's own expiry where it names
 * one), when that is within ROLL_WARNING_DAYS; null otherwise.
 */
export function expiresInDays(
  spread: RegisteredSpread,
  prices: Readonly<Prices>,
  specOf: (key: string) => InstrumentSpec | undefined,
  now: number,
): number | null {
  const today = istToday(now);
  let nearest: number | null = null;
  for (const leg of spread.legs) {
    const spec = specOf(leg.instrument);
    if (spec?.month !== "near") continue;
    const { root } = parseInstrumentKey(leg.instrument);
    const style = spec.exchange === "MCX" ? "mcx" : "cme";
    const day =
      prices.contracts?.[leg.instrument]?.expiry ??
      contractFor(root, "near", today, 0, style)?.rollFrom;
    if (!day) continue;
    const days = Math.round((Date.parse(day) - Date.parse(today)) / DAY_MS);
    if (days >= 0 && days <= ROLL_WARNING_DAYS && (nearest === null || days < nearest))
      nearest = days;
  }
  return nearest;
}
