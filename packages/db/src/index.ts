// The storage port the api uses (issue 11): async calls only, no driver, no SQL. The
// synchronous query modules stay as the SQLite adapter's internals.

// The metric list is domain (core); the store takes and returns it.
export { ALERT_METRICS, type AlertMetric } from "@spreadwatch/core";
export type {
  Alert,
  AlertChannel,
  AlertFiring,
  AlertSettings,
  Crossing,
  HeldCrossing,
  RecordedFiring,
  WatchedAlert,
} from "./alerts.ts";
export type { CandleRow, StoredCandle } from "./candles.ts";
export type { BrowserFiring, FiringChannel, FiringEntry, FiringPage } from "./firings.ts";
export type { IdempotencyClaim, IdempotentOutcome } from "./idempotency-keys.ts";
export { acquireLeadership, type Leadership, type LeadershipOptions } from "./leadership.ts";
export type { LoginAttempt, LoginAttemptVerdict, LoginLimits } from "./login-attempts.ts";
export type { Session, SessionEnd, SessionEndReason } from "./sessions.ts";
export { sqliteStore } from "./sqlite/store.ts";
export { openStore, type StoreConfig } from "./store/open.ts";
export type {
  AlertStore,
  CandleQuery,
  CandleStore,
  FiringStore,
  IdempotencyStore,
  KeyValueStore,
  LoginAttemptStore,
  OutboxBacklog,
  OutboxChannel,
  OutboxClaim,
  OutboxStore,
  SessionStore,
  SpreadMark,
  SpreadMarkStore,
  Store,
  TelegramLinkStore,
  UserStore,
  WebhookStore,
} from "./store/store.ts";
export { UsernameTakenError } from "./store/store.ts";
export type { OutboxMessage, TelegramLink } from "./telegram.ts";
export type { NewUser, User, UserPermission, UserSummary } from "./users.ts";
export type { UserWebhook } from "./webhooks.ts";
