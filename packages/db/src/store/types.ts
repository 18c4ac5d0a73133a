import type { InstrumentSpec } from "@spreadwatch/core";
import type {
  AlertMetric,
  CandleSource,
  CloseReason,
  CrossingSide,
  FiringSource,
  FiringState,
  OutboxChannel,
  PositionSide,
  PositionStatus,
  SessionEndReason,
} from "./enums.ts";

// The port's own plain types: what a Store call takes and returns, the same on every engine.
// No drizzle row type crosses the port; each adapter's rows must fit these (its compiler checks).

export interface User {
  id: number;
  username: string;
  passwordHash: string;
  isAdmin: boolean;
  alertsEnabled: boolean;
  createdAt: number;
}

/** A user as lists show it: no password hash, so it cannot end up in a response by accident. */
export type UserSummary = Omit<User, "passwordHash">;

export interface NewUser {
  username: string;
  passwordHash: string;
  isAdmin?: boolean;
  alertsEnabled?: boolean;
  /** Epoch ms; defaults to now. */
  createdAt?: number;
}

/** Column names as the spec's permissions endpoint spells them. */
export type UserPermission = "alerts_enabled" | "is_admin";

export interface Session {
  id: string;
  userId: number;
  createdAt: number;
  lastSeenAt: number;
}

export interface SessionEnd {
  sessionId: string;
  userId: number;
  reason: SessionEndReason;
  endedAt: number;
}

/** A spread alert (docs/spec.md §3). Browser firings and server firings are counted separately. */
export interface Alert {
  id: number;
  userId: number;
  commodityType: string;
  threshold: number;
  direction: string;
  soundId: string;
  enabled: boolean;
  telegramNotify: boolean;
  /** The one notification limit (1–5); the spec's maxNotifications and telegramMaxNotifications. */
  maxNotifications: number;
  /** Server firings counted against maxNotifications, whichever channels they went to. */
  serverFiringCount: number;
  /** Browser firings (the API's notificationCount). */
  notificationCount: number;
  lastTriggered: number | null;
  /** When the server last fired it (the API's lastTelegramTriggered). */
  lastTelegramTriggered: number | null;
  /** What the threshold is compared with; "spread" is the spec's alert. */
  metric: AlertMetric;
  /** Re-arm distance after a firing, in the metric's units; null: none. */
  hysteresis: number | null;
  webhookNotify: boolean;
  /** The side the last server firing crossed into: where re-arming starts. */
  lastFiredSide: CrossingSide | null;
  /** Why the server switched the alert off (e.g. its limit), shown until it is re-enabled. */
  disabledReason: string | null;
  createdAt: number;
  updatedAt: number;
}

/** The fields a user sets; counts and trigger times belong to the server. */
export interface AlertSettings {
  commodityType: string;
  threshold: number;
  soundId: string;
  enabled: boolean;
  telegramNotify: boolean;
  maxNotifications: number;
  /** Defaults to "spread" (the spec's alert). */
  metric?: AlertMetric;
  /** Re-arm distance after a firing, in the metric's units; null or absent: none. */
  hysteresis?: number | null;
  /** POST each server firing to the user's webhook. */
  webhookNotify?: boolean;
}

/**
 * An alert the server watches, with the channels it can use now: `chatId` when Telegram is on
 * and a chat is linked, `webhook` when webhooks are on and the user set one.
 */
export type WatchedAlert = Alert & { chatId: string | null; webhook: boolean };

/** Where a firing is delivered. */
export type AlertChannel = OutboxChannel;

/** A threshold crossing of one alert, as a History row records it (fired or held). */
export interface Crossing {
  alertId: number;
  symbol: string;
  /** The metric the threshold was compared with. */
  metric: AlertMetric;
  /** The metric's value that crossed. */
  value: number;
  threshold: number;
  /** The side crossed into: stored as the entry's direction (and a firing's lastFiredSide). */
  direction: CrossingSide;
  /** The quote time of the crossing: stored as firedAt (and a firing's lastTelegramTriggered). */
  at: number;
  now: number;
}

/** One crossing the server fired: what the History shows and what each channel is sent. */
export interface AlertFiring extends Crossing {
  /** The Telegram text, given the alert as it is right after this firing. */
  text: (alert: Alert) => string;
  /** The webhook's JSON body, given the alert after this firing and the firing's id. */
  webhookBody: (alert: Alert, firingId: number) => string;
}

/** A crossing the server held back (a stale leg, a closed market): a "held" History row. */
export interface HeldCrossing extends Crossing {
  /** Why it was held, e.g. "Held: CME GC quote stale (14 s old)". */
  note: string;
}

export type RecordedFiring =
  | { alert: Alert; firingId: number; outbox: { channel: AlertChannel; id: number }[] }
  | undefined;

/** What a browser says it fired on; the alert supplies symbol and threshold. */
export interface BrowserFiring {
  value: number;
  metric: AlertMetric;
  direction: CrossingSide;
}

/** Where one channel's message of a firing stands. */
export interface FiringChannel {
  channel: OutboxChannel | "browser";
  state: "pending" | "sent" | "failed";
  /** Failed tries so far, plus the last one once it was sent or failed for good. */
  attempts: number;
}

/**
 * The metric of a position's History entry: its net ₹ (total) against its target or stop. It is
 * not an alert metric (no alert can watch it); only the History and the outbox carry it.
 */
export const POSITION_NET_METRIC = "net";
/** What a History entry's value is: an alert's metric, or a position's net ₹. */
export type FiringMetric = AlertMetric | typeof POSITION_NET_METRIC;

/**
 * A position's net ₹ crossing its target or stop (api positions/position-alerts.ts), fired or
 * held on a stale leg: a History row with no alert, and when fired one outbox row per channel
 * its owner can use now (a linked Telegram chat, a webhook; both need the alerts permission).
 */
export interface PositionCrossing {
  userId: number;
  /** The mark's executable symbol (GC_SELL for a BUY position on GC). */
  symbol: string;
  /** Net ₹ (total) at the crossing. */
  value: number;
  threshold: number;
  /** "above": the target was reached; "below": the stop. */
  direction: CrossingSide;
  state: FiringState;
  /** What the History shows: the firing's sentence, and a held one's reason after it. */
  note: string;
  /** The quote time of the crossing. */
  at: number;
  now: number;
  /** The Telegram text (a fired crossing). */
  text: string;
  /** The webhook's JSON body, given the History row's id. */
  webhookBody: (firingId: number) => string;
}

/** What a position crossing wrote: its History row and the outbox rows queued for it. */
export interface RecordedPositionCrossing {
  firingId: number;
  outbox: { channel: AlertChannel; id: number }[];
}

/** One History entry: a firing (server or browser) or a crossing held back. */
export interface FiringEntry {
  id: number;
  /** Null once the alert was deleted (its history stays), and on a position's entry. */
  alertId: number | null;
  symbol: string;
  metric: FiringMetric;
  value: number;
  threshold: number;
  direction: CrossingSide;
  firedAt: number;
  state: FiringState;
  source: FiringSource;
  note: string | null;
  channels: FiringChannel[];
}

export interface FiringPage {
  limit: number;
  /** firedAt cursor, exclusive: entries strictly older than this. */
  before?: number | undefined;
  /**
   * Instead of `before`: the rest of a group that shares one firedAt, the entries at exactly
   * `firedAt` with an id below `belowId` (a page's last entry), in the same order.
   */
  sameTime?: { firedAt: number; belowId: number } | undefined;
}

/**
 * The alert engine's last value per symbol and metric: where a new leader's crossing state
 * starts. `symbol` is the mark's key: the spread symbol for the spread ("GC_BUY"), the symbol
 * and the metric for the others ("GC_BUY|zscore"); `value` is that metric's value.
 */
export interface SpreadMark {
  symbol: string;
  value: number;
  at: number;
}

/** A user's confirmed Telegram chat: stored only after Telegram accepted a message to it. */
export interface TelegramLink {
  userId: number;
  chatId: string;
  connectedAt: number;
}

/** A message to deliver on one channel (Telegram's text or a webhook's body), with its state. */
export interface OutboxMessage {
  id: number;
  userId: number;
  alertId: number | null;
  channel: OutboxChannel;
  /** The firing this message tells of; webhooks derive their Idempotency-Key from it. */
  firingId: number | null;
  /** Telegram's chat; empty for a webhook, whose URL and secret are read at send time. */
  chatId: string;
  /** Telegram's text, or a webhook's JSON body (signed as is, byte for byte, on every retry). */
  text: string;
  createdAt: number;
  attempts: number;
  nextAttemptAt: number;
  sentAt: number | null;
  /** Set when the channel refused the message for good: no more retries. */
  failedAt: number | null;
  lastError: string | null;
  /** The instance sending the row; with claimedUntil, a lease that outlives a dead sender. */
  claimedBy: string | null;
  claimedUntil: number | null;
}

/** A user's webhook: where their alerts' webhook firings are POSTed, and the signing key. */
export interface UserWebhook {
  userId: number;
  url: string;
  secret: string;
  updatedAt: number;
}

export interface StoredCandle {
  symbol: string;
  timeframe: string;
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

export type CandleRow = Pick<StoredCandle, "timestamp" | "open" | "high" | "low" | "close">;

/** How many attempts a window allows, per (username, address) and per address. */
export interface LoginLimits {
  perUserAddress: number;
  perAddress: number;
  windowMs: number;
}

export interface LoginAttempt {
  usernameKey: string;
  address: string;
  now: number;
}

export type LoginAttemptVerdict =
  | { allowed: true }
  | { allowed: false; scope: "user_address" | "address"; retryAfterMs: number };

export interface IdempotencyClaim {
  userId: number;
  key: string;
  /** Names the operation and digests its input; another request under the same key is refused. */
  fingerprint: string;
  now: number;
  /** How long a key is remembered. */
  ttlMs: number;
}

export type IdempotentOutcome<T> =
  | { kind: "created"; response: T }
  | { kind: "replayed"; response: unknown }
  | { kind: "mismatch" };

/** An instrument an admin put in use: core's InstrumentSpec, with who added it and when. */
export type StoredInstrument = InstrumentSpec & { createdAt: number; createdBy: number | null };

/** What adding an instrument did: stored, already stored, or refused at the limit. */
export type InstrumentAdded = "added" | "exists" | "full";

/** A key's quotes moved from one exchange contract to another (GOLD26FEBFUT → GOLD26APRFUT). */
export interface InstrumentRoll {
  key: string;
  /** The quote time of the first quote of the new contract, epoch ms. */
  at: number;
  from: string;
  to: string;
}

export interface RollQuery {
  /** One key's rolls; every key's when absent. */
  key?: string | undefined;
  /** Rolls at or after `from` and before `to` (epoch ms). */
  from: number;
  to: number;
  /** At most this many, the latest ones. */
  limit: number;
}

/** One leg of a stored spread definition (core's SpreadLegDefinition). */
export interface StoredSpreadLeg {
  name: string;
  instrument: string;
  lots?: number;
}

/** What a user's spread definition is made of (docs/formulas.md). */
export interface SpreadDefinitionFields {
  name: string;
  legs: StoredSpreadLeg[];
  formula: string;
  shared: boolean;
}

/** A user's spread definition as stored; its symbol is SP<id>. */
export interface StoredSpreadDefinition extends SpreadDefinitionFields {
  id: number;
  ownerId: number;
  createdAt: number;
  updatedAt: number;
}

/** The limits a create is checked against, atomically with the insert. */
export interface SpreadLimits {
  perOwner: number;
  total: number;
}

/** What creating a definition did: stored, or refused at the owner's or the overall limit. */
export type SpreadCreated =
  | { kind: "created"; spread: StoredSpreadDefinition }
  | { kind: "full"; limit: "owner" | "total" };

/** One leg of a position at entry: its instrument, its fill (or live) price and its contract. */
export interface PositionLeg {
  instrument: string;
  price: number;
  /** The exchange contract the leg was on (GOLD26FEBFUT), when the quote named one. */
  contract?: string;
}

/** What opening a position stores (docs/http-api.md "Positions API (paper)"). */
export interface PositionFields {
  /** The definition's symbol: GC, SP7. */
  spread: string;
  side: PositionSide;
  lots: number;
  entry: number;
  /** ₹ per spread point per lot. */
  units: number;
  legs: Record<string, PositionLeg>;
  note: string;
  targetInr: number | null;
  stopInr: number | null;
  openedAt: number;
  /** The live-order campaign whose fills opened it; null or absent: a paper position. */
  executionId?: string | null;
  /** That campaign's slippage against its targeted spread, in ticks. */
  slippageTicks?: number | null;
}

export interface StoredPosition extends PositionFields {
  executionId: string | null;
  slippageTicks: number | null;
  id: number;
  ownerId: number;
  /** The first position of its roll chain; its own id when nothing was rolled into it. */
  campaignId: number;
  rolledFromId: number | null;
  status: PositionStatus;
  closedAt: number | null;
}

/** The fields a user may change on a position; undefined leaves one as it is, null clears it. */
export interface PositionPatch {
  note?: string | undefined;
  targetInr?: number | null | undefined;
  stopInr?: number | null | undefined;
}

export interface PositionClose {
  id: number;
  positionId: number;
  ownerId: number;
  lots: number;
  exit: number;
  realisedInr: number;
  closedAt: number;
  reason: CloseReason;
}

/** A close asked for: `lots` undefined closes every open lot. */
export interface PositionCloseRequest {
  lots?: number | undefined;
  exit: number;
  closedAt: number;
  reason: CloseReason;
}

/** What a close did, or why it did nothing. */
export type PositionClosed =
  | { kind: "closed"; close: PositionClose; position: StoredPosition }
  | { kind: "not_found" }
  /** More lots asked for than are open (`open` of them), or the position is closed already. */
  | { kind: "too_many"; open: number };

/** Realised net ₹ of closing `lots` of `position` at `exit` (the api's, with its cost model). */
export type Realise = (position: StoredPosition, lots: number, exit: number) => number;

/** A one-minute candle of an exchange contract, with where it came from. */
export interface ContractCandle {
  /** The minute's open time, epoch ms. */
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
  source: CandleSource;
}

/** What is stored of one contract: its minutes' span and count. */
export interface ContractCoverage {
  contract: string;
  /** The first and last minute's open time, epoch ms. */
  from: number;
  to: number;
  minutes: number;
}
