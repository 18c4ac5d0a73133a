export {
  type Alert,
  type AlertSettings,
  countUserAlerts,
  createAlert,
  deleteAlert,
  findUserAlert,
  listUserAlerts,
  listWatchedAlerts,
  type RecordedFiring,
  recordBrowserTrigger,
  recordTelegramFiring,
  recordTelegramFirings,
  type TelegramFiring,
  updateAlert,
  type WatchedAlert,
} from "./alerts.ts";
export {
  allCandles,
  type CandleRow,
  hasCandles,
  pruneCandles,
  recentCandles,
  type StoredCandle,
  saveCandles,
} from "./candles.ts";
export {
  type Database,
  type DatabaseHandle,
  isUniqueViolation,
  openDatabase,
} from "./connection.ts";
export {
  countIdempotencyKeys,
  type IdempotencyClaim,
  type IdempotentOutcome,
  runOnce,
} from "./idempotency-keys.ts";
export { acquireLeadership, type Leadership, type LeadershipOptions } from "./leadership.ts";
export {
  beginLoginAttempt,
  clearLoginAttempts,
  countLoginAttempts,
  type LoginAttempt,
  type LoginAttemptVerdict,
  type LoginLimits,
} from "./login-attempts.ts";
export {
  createSession,
  deleteSession,
  deleteSessionsIdleSince,
  deleteUserSessions,
  findSession,
  findSessionEnd,
  pruneSessionEnds,
  type Session,
  type SessionEnd,
  type SessionEndReason,
  touchSession,
} from "./sessions.ts";
// The async port the api moves to (issue 11); the synchronous functions above stay until it has.
export { sqliteStore } from "./sqlite/store.ts";
export { openStore, type StoreConfig } from "./store/open.ts";
export type {
  AlertStore,
  CandleQuery,
  CandleStore,
  IdempotencyStore,
  KeyValueStore,
  LoginAttemptStore,
  OutboxClaim,
  OutboxStore,
  SessionStore,
  SpreadMark,
  SpreadMarkStore,
  Store,
  TelegramLinkStore,
  UserStore,
} from "./store/store.ts";
export { UsernameTakenError } from "./store/store.ts";
export {
  deleteTelegramLink,
  dueOutboxMessages,
  findTelegramLink,
  listOutbox,
  markOutboxFailed,
  markOutboxRetry,
  markOutboxSent,
  type OutboxMessage,
  saveTelegramLink,
  type TelegramLink,
} from "./telegram.ts";
export {
  countUsers,
  createUser,
  deleteUser,
  findUserById,
  findUserByUsername,
  listUsers,
  type NewUser,
  setPasswordHash,
  setUserPermission,
  type User,
  type UserPermission,
  type UserSummary,
} from "./users.ts";
