/**
 * The enumerations the database stores, defined once: both schemas type their text columns
 * with them and the port's types are their unions.
 */
export {
  ALERT_METRICS,
  type AlertMetric,
  CURRENCIES,
  type Currency,
  EXCHANGES,
  type Exchange,
  MONTH_SELECTORS,
  type MonthSelector,
  PROVIDER_KINDS,
  type ProviderKind,
} from "@spreadwatch/core";

/** Why a session ended (a tombstone tells the browser still holding its cookie). */
export const SESSION_END_REASONS = [
  "replaced",
  "password_changed",
  "user_deleted",
  "expired",
  "logged_out",
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** Where a server firing is delivered; each channel has its own sender. */
export const OUTBOX_CHANNELS = ["telegram", "webhook"] as const;
export type OutboxChannel = (typeof OUTBOX_CHANNELS)[number];

/** The side of its threshold a value crossed into. */
export const CROSSING_SIDES = ["above", "below"] as const;
export type CrossingSide = (typeof CROSSING_SIDES)[number];

/** A History row: a firing, or a crossing the server held back. */
export const FIRING_STATES = ["fired", "held"] as const;
export type FiringState = (typeof FIRING_STATES)[number];

/** Who fired: the server's engine, or a user's browser. */
export const FIRING_SOURCES = ["server", "browser"] as const;
export type FiringSource = (typeof FIRING_SOURCES)[number];

/** Which way a position is in its spread (core's PositionSide). */
export const POSITION_SIDES = ["BUY", "SELL"] as const;
export type PositionSide = (typeof POSITION_SIDES)[number];

export const POSITION_STATUSES = ["open", "closed"] as const;
export type PositionStatus = (typeof POSITION_STATUSES)[number];

/**
 * An execution campaign's state (docs/user-guide.md "Live orders"): working its first leg, hedging a fill,
 * or ended: done (both legs filled), flattened (the guard undid a naked leg), naked (left for the
 * trader after an alert), cancelled, failed (nothing filled and nothing more will be sent).
 */
export const EXECUTION_STATUSES = [
  "working",
  "hedging",
  "done",
  "flattened",
  "naked",
  "cancelled",
  "failed",
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
/** The states a leader still works. */
export const OPEN_EXECUTION_STATUSES = ["working", "hedging"] as const;

/** Why lots were closed: by the user, or by a roll onto the next contract. */
export const CLOSE_REASONS = ["close", "roll"] as const;
export type CloseReason = (typeof CLOSE_REASONS)[number];

/**
 * Where a contract's one-minute candle came from: recorded live here, made by the simulator's
 * backfill, or fetched from a provider. A recorded minute is never replaced by another source.
 */
export const CANDLE_SOURCES = ["recorded", "simulated", "kite", "yahoo"] as const;
export type CandleSource = (typeof CANDLE_SOURCES)[number];
