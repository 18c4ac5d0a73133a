import type { RouterOutputs } from "@spreadwatch/api";

export type FeedHealth = RouterOutputs["health"]["status"];
export type ProviderHealth = FeedHealth["providers"][number];
export type FeedState = ProviderHealth["state"];

export const STATE_TEXT: Record<FeedState, string> = {
  connecting: "connecting",
  live: "live",
  delayed: "delayed",
  stale: "stale",
  down: "down",
  not_configured: "not configured",
};

/** What each state means, for titles and the admin table. */
export const STATE_HINT: Record<FeedState, string> = {
  connecting: "started, no quote yet",
  live: "delivering quotes",
  delayed: "delivering quotes that its source publishes late on purpose",
  stale: "connected, but no new quote for a while (normal while its market is closed)",
  down: "the connection or the last request failed; retrying",
  not_configured: "credentials or the day's login are missing",
};

/** Provider names come from the config file (kite, yahoo, giftnifty); shown capitalised. */
export function providerLabel(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * Whether a provider's prices are not being updated at all, so its rows are marked stale even
 * before their timestamps age (a delayed source's timestamps are old by design).
 */
export function isCut(state: FeedState, delayedRow: boolean): boolean {
  if (state === "down" || state === "not_configured") return true;
  return delayedRow && state === "stale";
}

/** Quote key (GC, GOLD, USDINR…) → the provider that serves it. */
export function providersByKey(
  providers: readonly ProviderHealth[] | undefined,
): Map<string, ProviderHealth> {
  const byKey = new Map<string, ProviderHealth>();
  for (const provider of providers ?? []) {
    for (const key of provider.keys) byKey.set(key, provider);
  }
  return byKey;
}

/**
 * How old a provider's last quote is now, on this browser's clock: the server's figure plus the
 * time since it was fetched, or less when the live stream showed one of its prices change since.
 */
export function quoteAgeMs(
  provider: ProviderHealth,
  fetchedAt: number,
  now: number,
  seenAt: number | undefined,
): number | null {
  const reported =
    provider.lastQuoteAgeMs === null
      ? null
      : provider.lastQuoteAgeMs + Math.max(0, now - fetchedAt);
  const seen = seenAt === undefined ? null : Math.max(0, now - seenAt);
  if (reported === null) return seen;
  return seen === null ? reported : Math.min(reported, seen);
}

/** "0 s ago", "4 min ago", "2 h ago", "3 d ago"; "no quote yet" without one. */
export function formatAge(ms: number | null): string {
  if (ms === null) return "no quote yet";
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

/** Uptime: "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
