import {
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import {
  ALERT_METRICS,
  CANDLE_SOURCES,
  CLOSE_REASONS,
  CROSSING_SIDES,
  CURRENCIES,
  EXCHANGES,
  EXECUTION_STATUSES,
  FIRING_SOURCES,
  FIRING_STATES,
  MONTH_SELECTORS,
  OUTBOX_CHANNELS,
  POSITION_SIDES,
  POSITION_STATUSES,
  PROVIDER_KINDS,
  SESSION_END_REASONS,
} from "../store/enums.ts";

// The SQLite schema. pg/schema.ts declares the same tables, in the same order, with the same
// columns and enumerations (schema-sync.test.ts holds them to it); what each column means is
// said here once.

/** Epoch ms everywhere: SQLite's integer is 64-bit. */
const epochMs = (name: string) => integer(name);
const flag = (name: string) => integer(name, { mode: "boolean" });
const serial = (name: string) => integer(name).primaryKey({ autoIncrement: true });
/** The user a row belongs to: it goes when they go. */
const owner = () => integer("user_id").references(() => users.id, { onDelete: "cascade" });
/** The alert a row tells of: kept (null) when the alert is deleted, so the history stays true. */
const alertOf = () => integer("alert_id").references(() => alerts.id, { onDelete: "set null" });

export const users = sqliteTable("users", {
  id: serial("id"),
  username: text("username").notNull(),
  // The lower-cased username: uniqueness without regard to case is the index's job, not the app's.
  usernameKey: text("username_key").notNull().unique(),
  // scrypt "salt:hash"; the format belongs to the api, the database only stores it.
  passwordHash: text("password_hash").notNull(),
  isAdmin: flag("is_admin").notNull().default(false),
  alertsEnabled: flag("alerts_enabled").notNull().default(false),
  createdAt: epochMs("created_at").notNull(),
});

/** One row per live login; a login deletes the user's other rows (one active session). */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: owner().notNull(),
    createdAt: epochMs("created_at").notNull(),
    lastSeenAt: epochMs("last_seen_at").notNull(),
  },
  (table) => [index("sessions_user_id_idx").on(table.userId)],
);

/**
 * Why a session stopped being valid, kept for a while after its `sessions` row is gone, so the
 * browser still holding its cookie can be told "you signed in elsewhere" rather than just "401".
 */
export const sessionEnds = sqliteTable(
  "session_ends",
  {
    sessionId: text("session_id").primaryKey(),
    userId: integer("user_id").notNull(),
    reason: text("reason", { enum: SESSION_END_REASONS }).notNull(),
    endedAt: epochMs("ended_at").notNull(),
  },
  (table) => [index("session_ends_ended_at_idx").on(table.endedAt)],
);

/** A spread alert (docs/spec.md §3). Browser firings and server firings are counted separately. */
export const alerts = sqliteTable(
  "alerts",
  {
    id: serial("id"),
    userId: owner().notNull(),
    commodityType: text("commodity_type").notNull(),
    threshold: real("threshold").notNull(),
    direction: text("direction").notNull().default("reaches"),
    soundId: text("sound_id").notNull().default("beep"),
    enabled: flag("enabled").notNull().default(true),
    telegramNotify: flag("telegram_notify").notNull().default(false),
    /** The one notification limit (1–5); the spec's maxNotifications and telegramMaxNotifications. */
    maxNotifications: integer("max_notifications").notNull().default(1),
    /** Server firings counted against the limit, whichever channels they went to. */
    serverFiringCount: integer("server_firing_count").notNull().default(0),
    notificationCount: integer("notification_count").notNull().default(0),
    lastTriggered: epochMs("last_triggered"),
    lastTelegramTriggered: epochMs("last_telegram_triggered"),
    /** What the threshold is compared with: "spread" (the spec's), "zscore" or "percentile". */
    metric: text("metric", { enum: ALERT_METRICS }).notNull().default("spread"),
    /**
     * Re-arm distance in the metric's units: after a firing the alert fires again only once the
     * value has moved back this far from the threshold. Null: re-arms on the next crossing back.
     */
    hysteresis: real("hysteresis"),
    webhookNotify: flag("webhook_notify").notNull().default(false),
    /** The side the last server firing crossed into: where re-arming starts. */
    lastFiredSide: text("last_fired_side", { enum: CROSSING_SIDES }),
    /** Why the server switched the alert off (e.g. its limit), shown until it is re-enabled. */
    disabledReason: text("disabled_reason"),
    createdAt: epochMs("created_at").notNull(),
    updatedAt: epochMs("updated_at").notNull(),
  },
  (table) => [
    index("alerts_user_id_idx").on(table.userId),
    index("alerts_commodity_enabled_idx").on(table.commodityType, table.enabled),
  ],
);

/**
 * The last value the alert engine saw per symbol and metric (the key: "GC_BUY", "GC_BUY|zscore"):
 * every alert's side of its threshold follows from it, so a new leader starts from here and
 * neither fires a crossing twice nor invents one.
 */
export const spreadMarks = sqliteTable("spread_marks", {
  symbol: text("symbol").primaryKey(),
  /** The metric's value: the spread itself, or its z-score or percentile. */
  value: real("value").notNull(),
  /** The quote time of that value, epoch ms. */
  at: epochMs("at").notNull(),
});

/**
 * Every firing of an alert, and every crossing held back (a stale leg, a closed market): the
 * alerts' History. Deliveries per channel are the outbox rows that point here (firing_id);
 * a firing made in a browser (source "browser") has the browser's sound as its only channel.
 */
export const alertFirings = sqliteTable(
  "alert_firings",
  {
    id: serial("id"),
    userId: owner().notNull(),
    alertId: alertOf(),
    symbol: text("symbol").notNull(),
    metric: text("metric", { enum: ALERT_METRICS }).notNull(),
    value: real("value").notNull(),
    threshold: real("threshold").notNull(),
    /** The side crossed into: "above" (value ≥ threshold) or "below". */
    direction: text("direction", { enum: CROSSING_SIDES }).notNull(),
    state: text("state", { enum: FIRING_STATES }).notNull(),
    source: text("source", { enum: FIRING_SOURCES }).notNull().default("server"),
    /** Why a crossing was held, or a remark on a firing (e.g. the limit it reached). */
    note: text("note"),
    /** The quote time of the crossing. */
    firedAt: epochMs("fired_at").notNull(),
    createdAt: epochMs("created_at").notNull(),
  },
  (table) => [index("alert_firings_user_fired_idx").on(table.userId, table.firedAt, table.id)],
);

/** A user's webhook: every server firing of an alert with webhookNotify is POSTed here, signed. */
export const userWebhooks = sqliteTable("user_webhooks", {
  userId: owner().primaryKey(),
  url: text("url").notNull(),
  /** The HMAC-SHA256 key of X-Spreadwatch-Signature; the user's own, shown to them only. */
  secret: text("secret").notNull(),
  updatedAt: epochMs("updated_at").notNull(),
});

/** A user's confirmed Telegram chat: stored only after Telegram accepted a message to it. */
export const telegramLinks = sqliteTable("telegram_links", {
  userId: owner().primaryKey(),
  chatId: text("chat_id").notNull(),
  connectedAt: epochMs("connected_at").notNull(),
});

/**
 * Messages to deliver, one row per channel of a firing (Telegram's text, a webhook's body). A
 * firing writes its rows in the same transaction as the alert's count, and each channel's sender
 * marks its rows sent, so a restart resends only what was never delivered.
 */
export const outbox = sqliteTable(
  "outbox",
  {
    id: serial("id"),
    userId: owner().notNull(),
    alertId: alertOf(),
    channel: text("channel", { enum: OUTBOX_CHANNELS }).notNull().default("telegram"),
    /** The firing this message tells of (its History entry); webhooks derive their Idempotency-Key from it. */
    firingId: integer("firing_id").references(() => alertFirings.id, { onDelete: "set null" }),
    /** Telegram's chat; empty for a webhook, whose URL and secret are read at send time. */
    chatId: text("chat_id").notNull(),
    /** Telegram's text, or a webhook's JSON body (signed as is, byte for byte, on every retry). */
    text: text("text").notNull(),
    createdAt: epochMs("created_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: epochMs("next_attempt_at").notNull(),
    sentAt: epochMs("sent_at"),
    /** Set when the channel refused the message for good (bot blocked, chat gone): no more retries. */
    failedAt: epochMs("failed_at"),
    lastError: text("last_error"),
    /** The instance sending the row; with claimedUntil, a lease that outlives a dead sender. */
    claimedBy: text("claimed_by"),
    claimedUntil: epochMs("claimed_until"),
  },
  (table) => [
    index("outbox_pending_idx").on(table.sentAt, table.failedAt, table.nextAttemptAt),
    index("outbox_firing_idx").on(table.firingId),
  ],
);

/**
 * OHLC candles of every spread, per timeframe. 1-minute candles are the record; coarser
 * timeframes are kept beside them (built by core from the same samples) so a chart of a year
 * reads at most 1,500 rows instead of aggregating half a million.
 */
export const spreadCandles = sqliteTable(
  "spread_candles",
  {
    symbol: text("symbol").notNull(),
    timeframe: text("timeframe").notNull(),
    /** Start of the candle's bucket, epoch ms (buckets aligned to Asia/Kolkata). */
    timestamp: epochMs("timestamp").notNull(),
    open: real("open").notNull(),
    high: real("high").notNull(),
    low: real("low").notNull(),
    close: real("close").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.symbol, table.timeframe, table.timestamp] }),
    // A backtest's read of a year of closes from the index alone, no row lookups
    // (docs/backtest.md, "Speed").
    index("spread_candles_closes_idx").on(
      table.symbol,
      table.timeframe,
      table.timestamp,
      table.close,
    ),
  ],
);

/**
 * One-minute (and coarser) candles of every instrument in use, of its mid (a book's middle, or
 * the price of a single-price instrument): a spread of one's own charts and ranks its past from
 * its legs' closes (docs/formulas.md). `symbol` is the instrument's catalogue key (GOLD@next).
 */
export const instrumentCandles = sqliteTable(
  "instrument_candles",
  {
    symbol: text("symbol").notNull(),
    timeframe: text("timeframe").notNull(),
    timestamp: epochMs("timestamp").notNull(),
    open: real("open").notNull(),
    high: real("high").notNull(),
    low: real("low").notNull(),
    close: real("close").notNull(),
  },
  (table) => [primaryKey({ columns: [table.symbol, table.timeframe, table.timestamp] })],
);

/**
 * One row per login attempt that was let through to the password check, written before the
 * check runs, so attempts still in flight count against the limit. A success deletes its
 * (username, address) rows; everything leaves once it is older than the window.
 */
export const loginAttempts = sqliteTable(
  "login_attempts",
  {
    id: integer("id").primaryKey(),
    /** The lower-cased username as typed: unknown usernames are limited like real ones. */
    usernameKey: text("username_key").notNull(),
    address: text("address").notNull(),
    attemptedAt: epochMs("attempted_at").notNull(),
  },
  (table) => [
    index("login_attempts_pair_idx").on(table.usernameKey, table.address, table.attemptedAt),
    index("login_attempts_address_idx").on(table.address, table.attemptedAt),
    index("login_attempts_attempted_at_idx").on(table.attemptedAt),
  ],
);

/**
 * A create a user asked for under an Idempotency-Key, with the answer it got, so a double
 * submit or a retry gets the same answer instead of a second record. Kept for a day.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    userId: owner().notNull(),
    key: text("key").notNull(),
    /** The procedure and a digest of its input: the same key with another request is refused. */
    fingerprint: text("fingerprint").notNull(),
    /** The JSON answer of the first request, replayed as is. */
    response: text("response").notNull(),
    createdAt: epochMs("created_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.key] }),
    index("idempotency_keys_created_at_idx").on(table.createdAt),
  ],
);

/**
 * Small pieces of server state every instance must see the same way (the day's Kite access
 * token), kept in the database instead of a file one box owns.
 */
export const keyValues = sqliteTable("key_values", {
  key: text("key").primaryKey(),
  /** JSON, as the caller wrote it. */
  value: text("value").notNull(),
  updatedAt: epochMs("updated_at").notNull(),
});

/**
 * The instruments an admin put in use (docs/instruments.md): core's InstrumentSpec, one row per
 * key. The fifteen built-in keys are always in use and never stored here.
 */
export const instruments = sqliteTable("instruments", {
  key: text("key").primaryKey(),
  exchange: text("exchange", { enum: EXCHANGES }).notNull(),
  name: text("name").notNull(),
  unit: text("unit").notNull(),
  currency: text("currency", { enum: CURRENCIES }).notNull(),
  lotUnits: real("lot_units").notNull(),
  tick: real("tick").notNull(),
  decimals: integer("decimals").notNull(),
  /** near, next, far for a future; null for spot, index and FX. */
  month: text("month", { enum: MONTH_SELECTORS }),
  /** Where a real feed finds it (both or neither); null: the exchange's usual provider. */
  sourceProvider: text("source_provider", { enum: PROVIDER_KINDS }),
  sourceSymbol: text("source_symbol"),
  createdAt: epochMs("created_at").notNull(),
  /** The admin who added it; kept (null) when that account is deleted. */
  createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
});

/**
 * The last exchange contract a key's quotes named (GOLD26FEBFUT): what a new quote is compared
 * with, so a roll that happened while no leader ran is still recorded when quotes resume.
 */
export const instrumentContracts = sqliteTable("instrument_contracts", {
  key: text("key").primaryKey(),
  contract: text("contract").notNull(),
  /** Its last trading day, YYYY-MM-DD, when the feed said. */
  expiry: text("expiry"),
  /** The quote time it was first seen, epoch ms. */
  seenAt: epochMs("seen_at").notNull(),
});

/** Each time a key's quotes moved to another contract: from which, to which, and when. */
export const instrumentRolls = sqliteTable(
  "instrument_rolls",
  {
    id: serial("id"),
    key: text("key").notNull(),
    /** The quote time of the first quote of the new contract, epoch ms. */
    at: epochMs("at").notNull(),
    fromContract: text("from_contract").notNull(),
    toContract: text("to_contract").notNull(),
  },
  (table) => [
    index("instrument_rolls_key_at_idx").on(table.key, table.at),
    index("instrument_rolls_at_idx").on(table.at),
  ],
);

/**
 * One-minute mid candles per exchange contract (GOLD26DECFUT), whatever selector quoted it: the
 * past the statistics of the contracts a spread holds now are computed from (docs/history.md).
 * `key` is the instrument key that quoted it when it was written (GOLD, GOLD@next).
 */
export const contractCandles = sqliteTable(
  "contract_candles",
  {
    key: text("key").notNull(),
    contract: text("contract").notNull(),
    timestamp: epochMs("timestamp").notNull(),
    open: real("open").notNull(),
    high: real("high").notNull(),
    low: real("low").notNull(),
    close: real("close").notNull(),
    source: text("source", { enum: CANDLE_SOURCES }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.contract, table.timestamp] }),
    index("contract_candles_key_timestamp_idx").on(table.key, table.timestamp),
  ],
);

/**
 * The spreads users defined (docs/formulas.md): named legs on catalogue instruments and a
 * formula over them. Its symbol is SP<id>; the thirteen built-ins are code, never stored here.
 */
export const spreadDefinitions = sqliteTable(
  "spread_definitions",
  {
    id: serial("id"),
    /** Who made it; their definitions go with their account. */
    ownerId: owner().notNull(),
    name: text("name").notNull(),
    /** JSON: [{ name, instrument, lots? }], as core's SpreadLegDefinition. */
    legs: text("legs").notNull(),
    formula: text("formula").notNull(),
    /** Published to every user (admins only). */
    shared: flag("shared").notNull().default(false),
    createdAt: epochMs("created_at").notNull(),
    updatedAt: epochMs("updated_at").notNull(),
  },
  (table) => [index("spread_definitions_user_id_idx").on(table.ownerId)],
);

/**
 * A user's spread position (docs/http-api.md "Positions API (paper)"): their own record of being in
 * a spread, never an order. `lots` are the lots still open; each close lowers them and writes a
 * `position_closes` row, and the last one closes the position.
 */
export const positions = sqliteTable(
  "positions",
  {
    id: serial("id"),
    /** Whose record it is: nobody else reads it, and it goes with their account. */
    ownerId: owner().notNull(),
    /** The definition's symbol: GC, SP7. */
    spread: text("spread").notNull(),
    side: text("side", { enum: POSITION_SIDES }).notNull(),
    lots: integer("lots").notNull(),
    /** The spread's value at entry. */
    entry: real("entry").notNull(),
    /** ₹ per spread point per lot. */
    units: real("units").notNull(),
    /** JSON: { legName: { instrument, price, contract? } }, the legs at entry. */
    legs: text("legs").notNull(),
    note: text("note").notNull().default(""),
    /** Net ₹ (total) at which the position alerts; null: none. */
    targetInr: real("target_inr"),
    stopInr: real("stop_inr"),
    openedAt: epochMs("opened_at").notNull(),
    /** The first position of a roll chain (its own id when it was not rolled into). */
    campaignId: integer("campaign_id").notNull(),
    rolledFromId: integer("rolled_from_id"),
    status: text("status", { enum: POSITION_STATUSES }).notNull().default("open"),
    closedAt: epochMs("closed_at"),
    /** The live-order campaign whose fills opened it; null: a paper position. */
    executionId: text("execution_id"),
    /** The campaign's slippage against its targeted spread, in ticks (live positions). */
    slippageTicks: real("slippage_ticks"),
  },
  (table) => [
    index("positions_user_id_status_idx").on(table.ownerId, table.status),
    index("positions_spread_status_idx").on(table.spread, table.status),
    uniqueIndex("positions_execution_id_idx").on(table.executionId),
  ],
);

/** Each close of some or all of a position's lots, with what it realised. */
export const positionCloses = sqliteTable(
  "position_closes",
  {
    id: serial("id"),
    positionId: integer("position_id")
      .notNull()
      .references(() => positions.id, { onDelete: "cascade" }),
    ownerId: owner().notNull(),
    lots: integer("lots").notNull(),
    exit: real("exit").notNull(),
    /** Net ₹ after the round trip's costs, to paise. */
    realisedInr: real("realised_inr").notNull(),
    closedAt: epochMs("closed_at").notNull(),
    reason: text("reason", { enum: CLOSE_REASONS }).notNull(),
  },
  (table) => [
    index("position_closes_user_id_idx").on(table.ownerId, table.closedAt),
    index("position_closes_position_id_idx").on(table.positionId),
  ],
);

/**
 * Execution campaigns: a spread's legs sent through the trader's own Kite with the leg guard
 * (docs/user-guide.md "Live orders"). The campaign's orders, fills and guard events are one JSON document
 * (`doc`), written whole after every step, so a restarted leader resumes from the last one.
 */
export const executions = sqliteTable(
  "executions",
  {
    /** The campaign's id, also the stem of every order tag it sends. */
    id: text("id").primaryKey(),
    ownerId: owner().notNull(),
    spread: text("spread").notNull(),
    status: text("status", { enum: EXECUTION_STATUSES }).notNull(),
    /** JSON: the ticket, its orders (tag, Kite order id, fills), events. */
    doc: text("doc").notNull(),
    createdAt: epochMs("created_at").notNull(),
    updatedAt: epochMs("updated_at").notNull(),
  },
  (table) => [
    index("executions_status_idx").on(table.status),
    index("executions_user_id_idx").on(table.ownerId, table.createdAt),
  ],
);
