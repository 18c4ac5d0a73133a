/**
 * Timing and size limits from docs/spec.md §9 that more than one package needs. Rules with their own
 * module keep their constants there (STALE_AFTER_MS in staleness.ts, HIGHLIGHT_* in
 * highlight.ts).
 */

/** Prices and calculations are polled every 2 s when the live stream is down. */
export const PRICE_POLL_MS = 2_000;
/** The alert watcher reloads the alert list every 15 s. */
export const ALERT_POLL_MS = 15_000;
/** An alert that fired does not fire again within 30 s. */
export const ALERT_COOLDOWN_MS = 30_000;
/** Session heartbeat interval while the session is valid. */
export const HEARTBEAT_MS = 10_000;
/** Heartbeat retry after a network error. */
export const HEARTBEAT_RETRY_MS = 30_000;
/** The notification popup keeps at most this many items. */
export const NOTIFICATION_LIMIT = 10;
