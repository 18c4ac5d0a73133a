/** A price older than this is marked stale in the raw price table (docs/spec.md §9). */
export const STALE_AFTER_MS = 10_000;

/**
 * True when the quote is more than 10 s older than `now` (both epoch ms). Exactly 10 s is still
 * fresh. A missing or non-finite timestamp counts as stale: a price whose age is unknown should
 * not look live. A timestamp ahead of `now` (clock skew between feed and browser) is fresh.
 */
export function isStale(quoteTs: number | null | undefined, now: number): boolean {
  if (quoteTs === null || quoteTs === undefined || !Number.isFinite(quoteTs)) return true;
  return now - quoteTs > STALE_AFTER_MS;
}
