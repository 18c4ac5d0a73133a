import type {
  Alert,
  AlertSettings,
  BrowserFiring,
  FiringChannel,
  FiringEntry,
  LoginAttempt,
  LoginAttemptVerdict,
  NewUser,
  SpreadMark,
  UserPermission,
} from "./types.ts";

// The rules both engines share: each adapter only reads and writes what these decide.

const IST_CLOCK = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Asia/Kolkata",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** The server channels a firing went to: what its limit is named after. */
export interface FiringChannels {
  telegram: boolean;
  webhook: boolean;
}

/**
 * The name of the one limit an alert's server channels share (docs/user-guide.md "Spread alerts"):
 * the channels themselves, "Telegram", "Webhook" or "Telegram + Webhook", so a webhook-only alert
 * never reads as a Telegram one.
 */
function limitName(channels: FiringChannels): string {
  if (channels.telegram && channels.webhook) return "Telegram + Webhook";
  return channels.webhook ? "Webhook" : "Telegram";
}

/**
 * Why the server switched an alert off at its limit: "Telegram limit 3 of 3 reached at 14:02 IST"
 * ("Webhook limit …", "Telegram + Webhook limit …" by where the last firing went), at the
 * crossing's time.
 */
export function limitReason(max: number, at: number, channels: FiringChannels): string {
  return `${limitName(channels)} limit ${max} of ${max} reached at ${IST_CLOCK.format(at)} IST`;
}

/** What decides where a server firing of an alert can go now (both engines read it). */
export interface ChannelState {
  enabled: boolean;
  /** The owner's alerts_enabled. */
  permitted: boolean;
  telegramNotify: boolean;
  chatId: string | null;
  webhookNotify: boolean;
  hasWebhook: boolean;
}

/** The channels an alert can deliver to now: none when it cannot fire at all. */
export function usableChannels(state: ChannelState | undefined): {
  chatId: string | null;
  webhook: boolean;
} {
  if (!state?.enabled || !state.permitted) return { chatId: null, webhook: false };
  return {
    chatId: state.telegramNotify ? state.chatId : null,
    webhook: state.webhookNotify && state.hasWebhook,
  };
}

/** One more firing counted against the limit: the new count, whether the alert stays on, and why not. */
export function countFiring(sent: number, max: number, at: number, channels: FiringChannels) {
  const count = sent + 1;
  const enabled = count < max;
  return { sent: count, enabled, reason: enabled ? null : limitReason(max, at, channels) };
}

/**
 * A partial change of an alert. Switching it back on resets its count, so a trader re-arming an
 * alert that hit its limit gets its full limit again, and clears the reason the server switched
 * it off (it no longer applies).
 */
export function alertChange(current: Alert, patch: Partial<AlertSettings>, now: number) {
  const rearmed = patch.enabled === true && !current.enabled;
  return {
    ...patch,
    ...(rearmed && { serverFiringCount: 0, disabledReason: null }),
    updatedAt: now,
  };
}

/** A new alert's row: the user's settings; counts and trigger times start at their defaults. */
export function newAlertRow(userId: number, settings: AlertSettings, now: number) {
  return { ...settings, userId, createdAt: now, updatedAt: now };
}

/** The History row of a browser firing of `alert` at `now` (the server's clock). */
export function browserFiringRow(alert: Alert, firing: BrowserFiring, now: number) {
  return {
    userId: alert.userId,
    alertId: alert.id,
    symbol: alert.commodityType,
    metric: firing.metric,
    value: firing.value,
    threshold: alert.threshold,
    direction: firing.direction,
    state: "fired" as const,
    source: "browser" as const,
    note: null,
    firedAt: now,
    createdAt: now,
  };
}

/** A stored History row. */
export type FiringRow = Omit<FiringEntry, "channels">;

/** What the History needs of an outbox row. */
export interface OutboxState {
  firingId: number | null;
  channel: FiringChannel["channel"];
  attempts: number;
  sentAt: number | null;
  failedAt: number | null;
}

/** An outbox row as a History channel: a sent or given-up row counts its last try too. */
export function channelOf(row: OutboxState): FiringChannel {
  if (row.sentAt !== null)
    return { channel: row.channel, state: "sent", attempts: row.attempts + 1 };
  if (row.failedAt !== null)
    return { channel: row.channel, state: "failed", attempts: row.attempts + 1 };
  return { channel: row.channel, state: "pending", attempts: row.attempts };
}

/**
 * Firing rows with their channels: a browser firing was delivered by the browser itself (its
 * sound), a held entry has none, a server firing has one per outbox row (in row order).
 */
export function toFiringEntries(
  rows: readonly FiringRow[],
  outbox: readonly OutboxState[],
): FiringEntry[] {
  const byFiring = new Map<number, FiringChannel[]>();
  for (const row of outbox) {
    if (row.firingId === null) continue;
    const list = byFiring.get(row.firingId) ?? [];
    list.push(channelOf(row));
    byFiring.set(row.firingId, list);
  }
  return rows.map((row) => ({
    id: row.id,
    alertId: row.alertId,
    symbol: row.symbol,
    metric: row.metric,
    value: row.value,
    threshold: row.threshold,
    direction: row.direction,
    firedAt: row.firedAt,
    state: row.state,
    source: row.source,
    note: row.note,
    channels:
      row.source === "browser"
        ? [{ channel: "browser", state: "sent", attempts: 1 }]
        : (byFiring.get(row.id) ?? []),
  }));
}

/** The case-blind key a username is unique by. */
export const usernameKey = (username: string): string => username.toLowerCase();

/** A new user's row: the case-blind key beside the name, no rights unless given. */
export function newUserRow(user: NewUser) {
  return {
    username: user.username,
    usernameKey: usernameKey(user.username),
    passwordHash: user.passwordHash,
    isAdmin: user.isAdmin ?? false,
    alertsEnabled: user.alertsEnabled ?? false,
    createdAt: user.createdAt ?? Date.now(),
  };
}

/** The column a permission of the spec's permissions endpoint sets. */
export function permissionChange(permission: UserPermission, value: boolean) {
  return permission === "is_admin" ? { isAdmin: value } : { alertsEnabled: value };
}

/**
 * Each symbol's latest mark (a later one wins a tie): an older mark never overwrites a newer one,
 * and one upsert statement touches each row once (PostgreSQL refuses to touch a row twice).
 */
export function latestMarks(marks: readonly SpreadMark[]): SpreadMark[] {
  const latest = new Map<string, SpreadMark>();
  for (const mark of marks) {
    const seen = latest.get(mark.symbol);
    if (!seen || mark.at >= seen.at) latest.set(mark.symbol, mark);
  }
  return [...latest.values()];
}

/** Idempotency: what a key already stored means for a request with `fingerprint`. */
export function earlierOutcome(
  earlier: { fingerprint: string; response: string },
  fingerprint: string,
): { kind: "replayed"; response: unknown } | { kind: "mismatch" } {
  return earlier.fingerprint === fingerprint
    ? { kind: "replayed", response: JSON.parse(earlier.response) as unknown }
    : { kind: "mismatch" };
}

/**
 * A login attempt's verdict from when each of its scopes is full (the limit-th most recent
 * attempt in the window ages out; undefined: room). That moment is the honest Retry-After.
 */
export function loginVerdict(
  now: number,
  pairFullUntil: number | undefined,
  addressFullUntil: number | undefined,
): LoginAttemptVerdict {
  if (pairFullUntil !== undefined)
    return { allowed: false, scope: "user_address", retryAfterMs: pairFullUntil - now };
  if (addressFullUntil !== undefined)
    return { allowed: false, scope: "address", retryAfterMs: addressFullUntil - now };
  return { allowed: true };
}

/** The row an attempt let through leaves (it counts while its password is being checked). */
export const attemptRow = ({ usernameKey, address, now }: LoginAttempt) => ({
  usernameKey,
  address,
  attemptedAt: now,
});
