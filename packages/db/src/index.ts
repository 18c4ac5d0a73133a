// The storage port the api uses: async calls only, no driver, no SQL (store/), and the two
// adapters behind it (sqlite/, pg/).

export { acquireLeadership, type Leadership, type LeadershipOptions } from "./pg/leadership.ts";
export { sqliteStore } from "./sqlite/store.ts";
export {
  ALERT_METRICS,
  type AlertMetric,
  CANDLE_SOURCES,
  type CandleSource,
  CLOSE_REASONS,
  type CloseReason,
  CROSSING_SIDES,
  type CrossingSide,
  EXECUTION_STATUSES,
  type ExecutionStatus,
  FIRING_SOURCES,
  FIRING_STATES,
  type FiringSource,
  type FiringState,
  OPEN_EXECUTION_STATUSES,
  OUTBOX_CHANNELS,
  type OutboxChannel,
  POSITION_SIDES,
  POSITION_STATUSES,
  type PositionSide,
  type PositionStatus,
  SESSION_END_REASONS,
  type SessionEndReason,
} from "./store/enums.ts";
export { openStore, type StoreConfig } from "./store/open.ts";
export type {
  AlertOnSymbol,
  AlertStore,
  CandleQuery,
  CandleStore,
  CloseColumns,
  CloseQuery,
  ContractCandleStore,
  ExecutionStore,
  FiringStore,
  IdempotencyStore,
  KeyValueStore,
  LoginAttemptStore,
  OutboxBacklog,
  OutboxClaim,
  OutboxStore,
  PositionStore,
  SessionStore,
  SpreadDefinitionStore,
  SpreadMarkStore,
  Store,
  StoredExecution,
  TelegramLinkStore,
  UserStore,
  WebhookStore,
} from "./store/store.ts";
export { UsernameTakenError } from "./store/store.ts";
// Every type a Store call takes or returns.
export type * from "./store/types.ts";
export { POSITION_NET_METRIC } from "./store/types.ts";
