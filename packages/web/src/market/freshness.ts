import { type BookEntry, isStale, type PriceEntry } from "@spreadwatch/core";
import { isCut, type ProviderHealth } from "./feedHealth.ts";

export type QuoteEntry = BookEntry | PriceEntry;

/** What the dashboard knows to judge a price's freshness: the time and who serves each key. */
export interface FreshnessContext {
  now: number;
  /** Quote key (GC, GOLD, USDINR…) → its provider's health; empty while health is unknown. */
  providers: Map<string, ProviderHealth>;
}

export type Freshness =
  | { kind: "fresh" }
  /** Its provider cannot update it (down, not configured, or a delayed source gone quiet). */
  | { kind: "cut"; provider: ProviderHealth }
  /** Older than 10 s (docs/spec.md §9); `ageMs` is null when its time is unknown. */
  | { kind: "old"; ageMs: number | null };

/**
 * Whether a price is still being updated. A delayed source's timestamps are old by design, so
 * for its prices only the provider's state counts.
 */
export function freshness(
  entry: QuoteEntry | undefined,
  provider: ProviderHealth | undefined,
  now: number,
): Freshness {
  if (provider && isCut(provider.state, entry?.delayed === true)) return { kind: "cut", provider };
  if (entry?.delayed) return { kind: "fresh" };
  if (!isStale(entry?.timestamp, now)) return { kind: "fresh" };
  const ageMs = entry && Number.isFinite(entry.timestamp) ? now - entry.timestamp : null;
  return { kind: "old", ageMs };
}

/** A book whose bid is above its ask: one side is wrong, so no spread is computed from it. */
export function isCrossed(
  entry: QuoteEntry | undefined,
): entry is BookEntry & { bid: number; ask: number } {
  const book = entry as BookEntry | undefined;
  return book?.bid !== undefined && book.ask !== undefined && book.bid > book.ask;
}
