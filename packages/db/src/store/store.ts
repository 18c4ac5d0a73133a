import type { InstrumentSpec } from "@spreadwatch/core";
import type { CandleSource, ExecutionStatus, OutboxChannel, SessionEndReason } from "./enums.ts";
import type {
  Alert,
  AlertFiring,
  AlertSettings,
  BrowserFiring,
  CandleRow,
  ContractCandle,
  ContractCoverage,
  FiringEntry,
  FiringPage,
  HeldCrossing,
  IdempotencyClaim,
  IdempotentOutcome,
  InstrumentAdded,
  InstrumentRoll,
  LoginAttempt,
  LoginAttemptVerdict,
  LoginLimits,
  NewUser,
  OutboxMessage,
  PositionClose,
  PositionClosed,
  PositionCloseRequest,
  PositionCrossing,
  PositionFields,
  PositionPatch,
  Realise,
  RecordedFiring,
  RecordedPositionCrossing,
  RollQuery,
  Session,
  SessionEnd,
  SpreadCreated,
  SpreadDefinitionFields,
  SpreadLimits,
  SpreadMark,
  StoredCandle,
  StoredInstrument,
  StoredPosition,
  StoredSpreadDefinition,
  TelegramLink,
  User,
  UserPermission,
  UserSummary,
  UserWebhook,
  WatchedAlert,
} from "./types.ts";

/**
 * The storage port: everything the api does with the database, as async calls grouped by noun.
 * One implementation per engine (SQLite embedded, PostgreSQL for several instances); both pass
 * the same contract tests. Whatever must be atomic is one call here, so no caller ever holds a
 * transaction, a driver or SQL.
 */
export interface Store {
  readonly kind: "sqlite" | "postgres";
  readonly users: UserStore;
  readonly sessions: SessionStore;
  readonly alerts: AlertStore;
  readonly firings: FiringStore;
  readonly spreadMarks: SpreadMarkStore;
  readonly telegramLinks: TelegramLinkStore;
  readonly outbox: OutboxStore;
  readonly webhooks: WebhookStore;
  readonly candles: CandleStore;
  /** Mid candles of the instruments in use, keyed by instrument (`symbol` is its key). */
  readonly instrumentCandles: CandleStore;
  readonly loginAttempts: LoginAttemptStore;
  readonly idempotency: IdempotencyStore;
  readonly keyValues: KeyValueStore;
  readonly instruments: InstrumentStore;
  readonly contracts: ContractStore;
  /** One-minute mid candles per exchange contract (GOLD26DECFUT): recorded, simulated or fetched. */
  readonly contractCandles: ContractCandleStore;
  readonly spreads: SpreadDefinitionStore;
  readonly positions: PositionStore;
  readonly executions: ExecutionStore;
  /** Waits for calls in flight, then closes the connection(s). */
  close(): Promise<void>;
}

/** Candle open times and closes, index by index. */
export interface CloseColumns {
  times: Float64Array;
  closes: Float64Array;
}

export interface UserStore {
  /** Throws UsernameTakenError when the name is taken in any letter case. */
  create(user: NewUser): Promise<User>;
  findByUsername(username: string): Promise<User | undefined>;
  findById(id: number): Promise<User | undefined>;
  list(): Promise<UserSummary[]>;
  count(): Promise<number>;
  /** Returns whether the user existed. */
  setPermission(id: number, permission: UserPermission, value: boolean): Promise<boolean>;
  /** Only the hash; see changePassword for the change that also signs the old password out. */
  setPasswordHash(id: number, passwordHash: string): Promise<boolean>;
  /**
   * Sets the hash and ends the user's sessions but `keepSessionId` ("password_changed"), in one
   * transaction: whoever knew the old password is signed out. Returns whether the user existed.
   */
  changePassword(
    id: number,
    passwordHash: string,
    now: number,
    keepSessionId?: string,
  ): Promise<boolean>;
  /** Ends the user's sessions ("user_deleted", so their browser learns why) and deletes them. */
  delete(id: number, now: number): Promise<boolean>;
}

export interface SessionStore {
  /**
   * Starts a session and ends every other session of the user ("replaced"): one active session
   * per user, also when two logins race on two instances. Returns how many it ended.
   */
  create(userId: number, id: string, now: number): Promise<number>;
  find(id: string): Promise<Session | undefined>;
  /** Why a session that no longer exists ended, while that is remembered. */
  findEnd(id: string): Promise<SessionEnd | undefined>;
  /** Returns whether the session still exists. */
  touch(id: string, now: number): Promise<boolean>;
  end(id: string, reason: SessionEndReason, now: number): Promise<boolean>;
  /** Ends every session of a user but `keepId`; returns how many. */
  endAllOfUser(
    userId: number,
    reason: SessionEndReason,
    now: number,
    keepId?: string,
  ): Promise<number>;
  /** Ends sessions not seen since `cutoff` ("expired"); returns how many. */
  endIdleSince(cutoff: number, now: number): Promise<number>;
  pruneEnds(cutoff: number): Promise<number>;
}

/** An alert as a refusal names it: whose, on what, at which threshold. */
export interface AlertOnSymbol {
  id: number;
  commodityType: string;
  metric: string;
  threshold: number;
  username: string;
}

export interface AlertStore {
  listByUser(userId: number): Promise<Alert[]>;
  countByUser(userId: number): Promise<number>;
  /** Another user's alert is undefined, so ids reveal nothing. */
  find(userId: number, id: number): Promise<Alert | undefined>;
  /**
   * Creates the alert unless the user already has `maxPerUser` (then undefined); the count and
   * the insert are atomic, so parallel creates cannot overshoot the limit.
   */
  create(
    userId: number,
    settings: AlertSettings,
    now: number,
    maxPerUser?: number,
  ): Promise<Alert | undefined>;
  /**
   * A partial change; re-enabling resets the Telegram count (a re-armed alert gets its limit)
   * and clears why the server had disabled it.
   */
  update(
    userId: number,
    id: number,
    patch: Partial<AlertSettings>,
    now: number,
  ): Promise<Alert | undefined>;
  delete(userId: number, id: number): Promise<boolean>;
  /**
   * A browser fired the alert: counted (atomically) for the browser only; with `firing` (what
   * it fired on) also a "browser" History entry, in the same transaction.
   */
  recordBrowserTrigger(
    userId: number,
    id: number,
    now: number,
    firing?: BrowserFiring,
  ): Promise<Alert | undefined>;
  /**
   * Alerts the server can deliver now: enabled, permitted, with at least one usable channel
   * (Telegram on and a chat linked → `chatId`; webhook on and a webhook set → `webhook`).
   */
  listWatched(userId?: number): Promise<WatchedAlert[]>;
  /**
   * One quote's server firings in one transaction: per firing the count, the trigger time and
   * side (lastFiredSide), the auto-disable at the limit with its `disabledReason`, the History
   * row (alert_firings, state "fired") and one outbox row per usable channel (Telegram text;
   * webhook body, which gets the firing's id). A firing whose alert can deliver nowhere now
   * writes nothing (undefined). `marks`, if given, are stored in the same transaction, so the
   * engine's state and what it fired never disagree after a crash.
   */
  recordFirings(
    firings: readonly AlertFiring[],
    marks?: readonly SpreadMark[],
  ): Promise<RecordedFiring[]>;
  /** Crossings held back (stale leg, closed market) as "held" History rows; returns how many. */
  recordHeld(entries: readonly HeldCrossing[]): Promise<number>;
  /** How many alerts (every user's, enabled or not) are on one of `symbols`. */
  countOnSymbols(symbols: readonly string[]): Promise<number>;
  /**
   * Which alerts (every user's, enabled or not) are on one of `symbols`, with their owner's
   * name, in id order: what an instrument's refusal to leave names.
   */
  listOnSymbols(symbols: readonly string[]): Promise<AlertOnSymbol[]>;
}

/** The alerts' History (docs/http-api.md, "Alert history and webhooks"). */
export interface FiringStore {
  /**
   * The user's firings and held crossings, newest first (firedAt, then id), at most `limit`,
   * strictly before `before` when given; each with its channels' delivery states.
   */
  list(userId: number, page: FiringPage): Promise<FiringEntry[]>;
  /**
   * Positions' target and stop crossings, in one transaction: each a History row (metric
   * "net", no alert); a fired one also one outbox row per channel its owner can use now. A
   * crossing of a user who no longer exists writes nothing (undefined).
   */
  recordPositionCrossings(
    crossings: readonly PositionCrossing[],
  ): Promise<(RecordedPositionCrossing | undefined)[]>;
}

export interface SpreadMarkStore {
  list(): Promise<SpreadMark[]>;
  /** Upserts; an older mark never overwrites a newer one (a late writer cannot rewind state). */
  save(marks: readonly SpreadMark[]): Promise<void>;
}

export interface TelegramLinkStore {
  find(userId: number): Promise<TelegramLink | undefined>;
  save(userId: number, chatId: string, now: number): Promise<void>;
  delete(userId: number): Promise<boolean>;
}

export interface OutboxClaim {
  /** Who sends; only this instance may then mark the rows. */
  instanceId: string;
  /** Only this channel's rows; every channel's when absent. */
  channel?: OutboxChannel;
  /**
   * Only each user's oldest unsent row (of the channel): a user's later rows wait while an
   * earlier one is in flight or serving its backoff, so one sender can send different users'
   * rows at once and still deliver each user's in order, even across instances.
   */
  oldestPerUser?: boolean;
  /** How long the rows stay claimed: a dead sender's rows come back after it. */
  leaseMs: number;
  limit: number;
  now: number;
}

/** A channel's undelivered rows (neither sent nor given up), for the operator's metrics. */
export interface OutboxBacklog {
  channel: OutboxChannel;
  pending: number;
  /** When the oldest of them was queued (epoch ms); null when none is pending. */
  oldestCreatedAt: number | null;
}

export interface OutboxStore {
  /**
   * Claims due, unclaimed (or lease-expired) rows, oldest first. Two claimers never get the
   * same row (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: one writer, one statement).
   */
  claim(claim: OutboxClaim): Promise<OutboxMessage[]>;
  /**
   * Its own statement, called right after Telegram accepted the message and before the next
   * one is sent. False when the row is no longer this instance's (its lease ran out and another
   * instance claimed it).
   */
  markSent(id: number, instanceId: string, now: number): Promise<boolean>;
  /** One more failed attempt and when to retry; releases the claim. */
  markRetry(id: number, instanceId: string, error: string, nextAttemptAt: number): Promise<boolean>;
  /** Refused for good: no more retries. */
  markFailed(id: number, instanceId: string, error: string, now: number): Promise<boolean>;
  /**
   * Pushes the lease of `ids` to `until`, for the rows `instanceId` still holds unsent: a send
   * that runs long keeps its row, and the lease itself can stay short, so a row left by a
   * killed sender comes back soon. Returns how many were renewed.
   */
  renew(ids: readonly number[], instanceId: string, until: number): Promise<number>;
  /**
   * Gives back every row `instanceId` still holds, unsent and not counted as an attempt. Its
   * sender calls this when it starts: a row held then was left by a stopped or killed run of
   * the same instance, and must not wait out the lease. With `channel`, only that channel's
   * rows: another channel's sender of the same instance may be sending one right now. Returns
   * how many.
   */
  release(instanceId: string, channel?: OutboxChannel): Promise<number>;
  /** Each channel that has undelivered rows, with how many and the oldest's age (one indexed scan). */
  backlog(): Promise<OutboxBacklog[]>;
  list(): Promise<OutboxMessage[]>;
}

/** A user's one webhook (docs/user-guide.md, "Webhooks"); URL and secret are read at send time. */
export interface WebhookStore {
  get(userId: number): Promise<UserWebhook | undefined>;
  /** Sets or replaces it. */
  save(userId: number, url: string, secret: string, now: number): Promise<UserWebhook>;
  /** Returns whether there was one. */
  delete(userId: number): Promise<boolean>;
}

export interface CandleQuery {
  symbol: string;
  timeframe: string;
  from?: number;
  to?: number;
  limit: number;
}

export interface CloseQuery {
  symbol: string;
  timeframe: string;
  from: number;
  to: number;
}

export interface CandleStore {
  /** Merges into stored buckets: open stays, high/low widen, close moves on. */
  save(candles: readonly StoredCandle[]): Promise<void>;
  /**
   * Writes each candle over its bucket's stored one, as given: a bucket made again from its
   * minutes (the recorder's candle spanning a first start, once the backfill stored the minutes
   * before it: docs/history.md).
   */
  replace(candles: readonly StoredCandle[]): Promise<void>;
  /** The most recent `limit` candles in [from, to), oldest first. */
  recent(query: CandleQuery): Promise<CandleRow[]>;
  /**
   * Every timestamp and close in [from, to), oldest first, as two columns: what a backtest
   * reads, a year of minutes at once, without an object or array kept per row.
   */
  closes(query: CloseQuery): Promise<CloseColumns>;
  /** The oldest candle of a symbol and timeframe. */
  first(symbol: string, timeframe: string): Promise<CandleRow | undefined>;
  has(timeframe: string): Promise<boolean>;
  prune(timeframe: string, cutoff: number): Promise<number>;
  /** Deletes every candle of these symbols (a spread whose formula changed); how many. */
  remove(symbols: readonly string[]): Promise<number>;
  all(symbol: string, timeframe: string): Promise<CandleRow[]>;
}

export interface ContractCandleStore {
  /**
   * Writes `contract`'s one-minute candles, quoted under `key`. A `recorded` candle merges into
   * a stored minute (open kept, high/low widened, close moved on) and makes it recorded; any
   * other source only fills minutes that are absent, so what was recorded live is never
   * overwritten by what was fetched or simulated. Returns how many rows were written.
   */
  write(
    key: string,
    contract: string,
    source: CandleSource,
    candles: readonly CandleRow[],
  ): Promise<number>;
  /** A contract's candles with open times in [from, to), oldest first. */
  range(contract: string, from: number, to: number): Promise<ContractCandle[]>;
  /**
   * The open times and closes of `range`, as columns: the statistics read 20 days of every leg
   * of a spread, and one object a minute held the event loop for seconds (docs/history.md).
   */
  closes(contract: string, from: number, to: number): Promise<CloseColumns>;
  /** The open time of `contract`'s latest stored minute, by its index (no scan). */
  lastMinute(contract: string): Promise<number | undefined>;
  /** The contract of the latest minute stored under `key`, by its index (no scan). */
  latestContract(key: string): Promise<string | undefined>;
  /**
   * Every stored contract `key` ever quoted (every contract when absent), all of its minutes
   * counted whichever key quoted them, oldest first by last minute.
   */
  coverage(key?: string): Promise<ContractCoverage[]>;
  /** Deletes minutes opened before `cutoff`; how many. */
  prune(cutoff: number): Promise<number>;
}

export interface LoginAttemptStore {
  /**
   * Checks the limits and records the attempt if there is room, atomically: of any number of
   * concurrent attempts (on any instance) at most the limit get through.
   */
  begin(attempt: LoginAttempt, limits: LoginLimits): Promise<LoginAttemptVerdict>;
  /** A successful login: its (username, address) pair starts afresh. */
  clear(usernameKey: string, address: string): Promise<number>;
  count(): Promise<number>;
}

export interface IdempotencyStore {
  /**
   * Runs `create` at most once per (user, key) within the TTL. The check, `create` and storing
   * its answer are one transaction: `create` gets a Store bound to it and must use only that
   * one. If `create` throws, nothing is stored and the key stays free.
   */
  runOnce<T>(
    claim: IdempotencyClaim,
    create: (store: Store) => Promise<T>,
  ): Promise<IdempotentOutcome<T>>;
  /**
   * What `runOnce` would meet now, read only: the stored answer ("replayed"), another request's
   * key ("mismatch"), or undefined while the key is free. Lets a create refuse a reused key
   * before it does anything outside the transaction; `runOnce` still decides, atomically.
   */
  peek(
    claim: IdempotencyClaim,
  ): Promise<Exclude<IdempotentOutcome<never>, { kind: "created" }> | undefined>;
  count(): Promise<number>;
}

export interface KeyValueStore {
  /** The JSON value stored under `key`, parsed. */
  get<T = unknown>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, now: number): Promise<void>;
  /**
   * Sets `key` (at `now`) only if it is missing or was last set before `staleBefore`, in one
   * statement: of instances racing to claim a stale key, exactly one gets true.
   */
  setIfStale(key: string, value: unknown, now: number, staleBefore: number): Promise<boolean>;
  delete(key: string): Promise<boolean>;
  /** Deletes the keys starting with `prefix` last set before `before`; returns how many. */
  deleteSetBefore(prefix: string, before: number): Promise<number>;
}

/** The instruments admins put in use (docs/instruments.md); the built-in fifteen are not stored. */
export interface InstrumentStore {
  /** Oldest first. */
  list(): Promise<StoredInstrument[]>;
  /**
   * Stores the instrument unless its key is stored ("exists") or `maxRows` are ("full"); the
   * check and the insert are atomic, so a double submit or two admins at once add it once.
   */
  add(
    spec: InstrumentSpec,
    by: number | null,
    at: number,
    maxRows?: number,
  ): Promise<InstrumentAdded>;
  /** Returns whether it was stored. */
  remove(key: string): Promise<boolean>;
  count(): Promise<number>;
}

/** The spreads users defined (docs/formulas.md); the built-in thirteen are not stored. */
export interface SpreadDefinitionStore {
  /** Every user's, oldest first. */
  list(): Promise<StoredSpreadDefinition[]>;
  find(id: number): Promise<StoredSpreadDefinition | undefined>;
  /**
   * Stores the definition unless its owner has `limits.perOwner` or all users `limits.total`
   * ("full", saying which); the counts and the insert are atomic, so parallel creates on any
   * instance never overshoot either limit.
   */
  create(
    ownerId: number,
    fields: SpreadDefinitionFields,
    now: number,
    limits: SpreadLimits,
  ): Promise<SpreadCreated>;
  /** Replaces its fields (owner and creation time stay); undefined when there is no such id. */
  update(
    id: number,
    fields: SpreadDefinitionFields,
    now: number,
  ): Promise<StoredSpreadDefinition | undefined>;
  /**
   * Deletes the definition and every alert (anyone's) on `alertSymbols` in one transaction:
   * whether it existed, and the users whose alerts went (so their engines can be told).
   */
  delete(
    id: number,
    alertSymbols: readonly string[],
  ): Promise<{ deleted: boolean; alertOwners: number[] }>;
  countByOwner(ownerId: number): Promise<number>;
}

/** The contract each key's quotes name, and the rolls between them. */
export interface ContractStore {
  /**
   * A quote of `key` named `contract`: in one transaction, remembers it and, when it differs
   * from the contract stored for the key, records and returns the roll. The first contract a
   * key is seen with is no roll; the same one again writes nothing.
   */
  observe(
    key: string,
    contract: string,
    expiry: string | undefined,
    at: number,
  ): Promise<InstrumentRoll | undefined>;
  /** Oldest first. */
  rolls(query: RollQuery): Promise<InstrumentRoll[]>;
}

/**
 * Users' spread positions and their closes (docs/http-api.md "Positions API (paper)"). Every call
 * but `listOpen` and `countOpenOn` takes the owner: another user's position does not exist.
 */
export interface PositionStore {
  /** Every user's open positions, oldest first (the api's index of them). */
  listOpen(): Promise<StoredPosition[]>;
  /** The owner's positions with that status, oldest first. */
  list(ownerId: number, status: "open" | "closed"): Promise<StoredPosition[]>;
  find(ownerId: number, id: number): Promise<StoredPosition | undefined>;
  /**
   * Stores an open position. `rolledFrom` links it into that position's campaign; without it
   * the position starts its own (campaignId = its id).
   */
  create(
    ownerId: number,
    fields: PositionFields,
    rolledFrom?: { campaignId: number; id: number },
  ): Promise<StoredPosition>;
  /**
   * Opens a position unless its owner has `maxOpen` open already (then undefined); the count
   * and the insert are atomic, so parallel opens on any instance never overshoot the limit.
   */
  open(
    ownerId: number,
    fields: PositionFields,
    maxOpen: number,
  ): Promise<StoredPosition | undefined>;
  /**
   * Opens the live position of campaign `fields.executionId` once: a second call for the same
   * campaign (a restart, a new leader) answers the position the first one opened.
   */
  openLive(
    ownerId: number,
    fields: PositionFields & { executionId: string },
  ): Promise<StoredPosition>;
  /**
   * Applies campaign `fields.executionId`'s fills to the owner's live position `positionId`, once
   * (a restart or a new leader calling again changes nothing): the same side adds its lots at
   * lots-weighted averages, the opposite side closes lots at `fields.entry` (`realise` as for a
   * close) and opens any beyond; a position that is not an open live one on the same spread is
   * left alone and the campaign opens its own (position-rows.ts `liveApplication`). Answers the
   * position the campaign's lots went into (or came out of); undefined when that one was
   * deleted since the campaign was applied.
   */
  applyLive(
    ownerId: number,
    positionId: number,
    fields: PositionFields & { executionId: string },
    realise: Realise,
  ): Promise<StoredPosition | undefined>;
  update(ownerId: number, id: number, patch: PositionPatch): Promise<StoredPosition | undefined>;
  /** Deletes the position and its closes; whether it existed. */
  delete(ownerId: number, id: number): Promise<boolean>;
  /**
   * Closes some or all open lots in one transaction: the lots are read and lowered under a
   * lock, so two closes at once never close more lots than were open. The last lot closes the
   * position. `realise` gives the close's net ₹ from the lots it actually closes.
   */
  close(
    ownerId: number,
    id: number,
    request: PositionCloseRequest,
    realise: Realise,
  ): Promise<PositionClosed>;
  /**
   * Closes every open lot ("roll") and opens `next` in the same campaign, in one transaction.
   * `next` is built from the closed position (its lots, side, note, target and stop).
   */
  roll(
    ownerId: number,
    id: number,
    request: Omit<PositionCloseRequest, "lots" | "reason">,
    realise: Realise,
    next: (closed: StoredPosition) => PositionFields,
  ): Promise<
    | { kind: "rolled"; close: PositionClose; closed: StoredPosition; position: StoredPosition }
    | Exclude<PositionClosed, { kind: "closed" }>
  >;
  /** The owner's closes, oldest first; only those of `positionIds` when given. */
  closes(ownerId: number, positionIds?: readonly number[]): Promise<PositionClose[]>;
  /** How many open positions (anyone's) are on spread `symbol` (GC, SP7). */
  countOpenOn(symbol: string): Promise<number>;
}

/** A username already taken, in any letter case. */
export class UsernameTakenError extends Error {
  constructor(readonly username: string) {
    super(`Username "${username}" already exists`);
    this.name = "UsernameTakenError";
  }
}

/** One execution campaign as stored: its document is the api's, kept as JSON text. */
export interface StoredExecution {
  id: string;
  ownerId: number;
  spread: string;
  status: ExecutionStatus;
  doc: unknown;
  createdAt: number;
  updatedAt: number;
}

/** Execution campaigns (docs/user-guide.md "Live orders"): written whole after every step of the leader's. */
export interface ExecutionStore {
  create(execution: StoredExecution): Promise<void>;
  get(id: string): Promise<StoredExecution | undefined>;
  /** Replaces the status and document; false when there is no such campaign. */
  save(id: string, status: ExecutionStatus, doc: unknown, now: number): Promise<boolean>;
  /** The campaigns a leader still works (working, hedging), oldest first. */
  listOpen(): Promise<StoredExecution[]>;
  /** A user's newest campaigns first. */
  listOf(ownerId: number, limit: number): Promise<StoredExecution[]>;
}
