import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
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

// The PostgreSQL schema: sqlite/schema.ts's tables, in the same order, with the same columns and
// enumerations (schema-sync.test.ts holds them to it); see there for what each column means.
// SQLite's `real` is a double, hence doublePrecision here.

/** Epoch ms everywhere, as in the SQLite schema: `bigint` in number mode (ms outgrow int4). */
const epochMs = (name: string) => bigint(name, { mode: "number" });
const flag = (name: string) => boolean(name);
const serial = (name: string) => integer(name).primaryKey().generatedAlwaysAsIdentity();
/** The user a row belongs to: it goes when they go. */
const owner = () => integer("user_id").references(() => users.id, { onDelete: "cascade" });
/** The alert a row tells of: kept (null) when the alert is deleted, so the history stays true. */
const alertOf = () => integer("alert_id").references(() => alerts.id, { onDelete: "set null" });

export const users = pgTable("users", {
  id: serial("id"),
  username: text("username").notNull(),
  usernameKey: text("username_key").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  isAdmin: flag("is_admin").notNull().default(false),
  alertsEnabled: flag("alerts_enabled").notNull().default(false),
  createdAt: epochMs("created_at").notNull(),
});

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: owner().notNull(),
    createdAt: epochMs("created_at").notNull(),
    lastSeenAt: epochMs("last_seen_at").notNull(),
  },
  (table) => [index("sessions_user_id_idx").on(table.userId)],
);

export const sessionEnds = pgTable(
  "session_ends",
  {
    sessionId: text("session_id").primaryKey(),
    userId: integer("user_id").notNull(),
    reason: text("reason", { enum: SESSION_END_REASONS }).notNull(),
    endedAt: epochMs("ended_at").notNull(),
  },
  (table) => [index("session_ends_ended_at_idx").on(table.endedAt)],
);

export const alerts = pgTable(
  "alerts",
  {
    id: serial("id"),
    userId: owner().notNull(),
    commodityType: text("commodity_type").notNull(),
    threshold: doublePrecision("threshold").notNull(),
    direction: text("direction").notNull().default("reaches"),
    soundId: text("sound_id").notNull().default("beep"),
    enabled: flag("enabled").notNull().default(true),
    telegramNotify: flag("telegram_notify").notNull().default(false),
    maxNotifications: integer("max_notifications").notNull().default(1),
    serverFiringCount: integer("server_firing_count").notNull().default(0),
    notificationCount: integer("notification_count").notNull().default(0),
    lastTriggered: epochMs("last_triggered"),
    lastTelegramTriggered: epochMs("last_telegram_triggered"),
    metric: text("metric", { enum: ALERT_METRICS }).notNull().default("spread"),
    hysteresis: doublePrecision("hysteresis"),
    webhookNotify: flag("webhook_notify").notNull().default(false),
    lastFiredSide: text("last_fired_side", { enum: CROSSING_SIDES }),
    disabledReason: text("disabled_reason"),
    createdAt: epochMs("created_at").notNull(),
    updatedAt: epochMs("updated_at").notNull(),
  },
  (table) => [
    index("alerts_user_id_idx").on(table.userId),
    index("alerts_commodity_enabled_idx").on(table.commodityType, table.enabled),
  ],
);

export const spreadMarks = pgTable("spread_marks", {
  symbol: text("symbol").primaryKey(),
  value: doublePrecision("value").notNull(),
  at: epochMs("at").notNull(),
});

export const alertFirings = pgTable(
  "alert_firings",
  {
    id: serial("id"),
    userId: owner().notNull(),
    alertId: alertOf(),
    symbol: text("symbol").notNull(),
    metric: text("metric", { enum: ALERT_METRICS }).notNull(),
    value: doublePrecision("value").notNull(),
    threshold: doublePrecision("threshold").notNull(),
    direction: text("direction", { enum: CROSSING_SIDES }).notNull(),
    state: text("state", { enum: FIRING_STATES }).notNull(),
    source: text("source", { enum: FIRING_SOURCES }).notNull().default("server"),
    note: text("note"),
    firedAt: epochMs("fired_at").notNull(),
    createdAt: epochMs("created_at").notNull(),
  },
  (table) => [index("alert_firings_user_fired_idx").on(table.userId, table.firedAt, table.id)],
);

export const userWebhooks = pgTable("user_webhooks", {
  userId: owner().primaryKey(),
  url: text("url").notNull(),
  secret: text("secret").notNull(),
  updatedAt: epochMs("updated_at").notNull(),
});

export const telegramLinks = pgTable("telegram_links", {
  userId: owner().primaryKey(),
  chatId: text("chat_id").notNull(),
  connectedAt: epochMs("connected_at").notNull(),
});

/** Claimed by one sender at a time under a lease (see outbox.ts). */
export const outbox = pgTable(
  "outbox",
  {
    id: serial("id"),
    userId: owner().notNull(),
    alertId: alertOf(),
    channel: text("channel", { enum: OUTBOX_CHANNELS }).notNull().default("telegram"),
    firingId: integer("firing_id").references(() => alertFirings.id, { onDelete: "set null" }),
    chatId: text("chat_id").notNull(),
    text: text("text").notNull(),
    createdAt: epochMs("created_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: epochMs("next_attempt_at").notNull(),
    sentAt: epochMs("sent_at"),
    failedAt: epochMs("failed_at"),
    lastError: text("last_error"),
    claimedBy: text("claimed_by"),
    claimedUntil: epochMs("claimed_until"),
  },
  (table) => [
    index("outbox_pending_idx").on(table.sentAt, table.failedAt, table.nextAttemptAt),
    index("outbox_firing_idx").on(table.firingId),
  ],
);

export const spreadCandles = pgTable(
  "spread_candles",
  {
    symbol: text("symbol").notNull(),
    timeframe: text("timeframe").notNull(),
    timestamp: epochMs("timestamp").notNull(),
    open: doublePrecision("open").notNull(),
    high: doublePrecision("high").notNull(),
    low: doublePrecision("low").notNull(),
    close: doublePrecision("close").notNull(),
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

/** Instruments' mid candles, as in the SQLite schema. */
export const instrumentCandles = pgTable(
  "instrument_candles",
  {
    symbol: text("symbol").notNull(),
    timeframe: text("timeframe").notNull(),
    timestamp: epochMs("timestamp").notNull(),
    open: doublePrecision("open").notNull(),
    high: doublePrecision("high").notNull(),
    low: doublePrecision("low").notNull(),
    close: doublePrecision("close").notNull(),
  },
  (table) => [primaryKey({ columns: [table.symbol, table.timeframe, table.timestamp] })],
);

export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: serial("id"),
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

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: owner().notNull(),
    key: text("key").notNull(),
    fingerprint: text("fingerprint").notNull(),
    response: text("response").notNull(),
    createdAt: epochMs("created_at").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.key] }),
    index("idempotency_keys_created_at_idx").on(table.createdAt),
  ],
);

export const keyValues = pgTable("key_values", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: epochMs("updated_at").notNull(),
});

export const instruments = pgTable("instruments", {
  key: text("key").primaryKey(),
  exchange: text("exchange", { enum: EXCHANGES }).notNull(),
  name: text("name").notNull(),
  unit: text("unit").notNull(),
  currency: text("currency", { enum: CURRENCIES }).notNull(),
  lotUnits: doublePrecision("lot_units").notNull(),
  tick: doublePrecision("tick").notNull(),
  decimals: integer("decimals").notNull(),
  month: text("month", { enum: MONTH_SELECTORS }),
  sourceProvider: text("source_provider", { enum: PROVIDER_KINDS }),
  sourceSymbol: text("source_symbol"),
  createdAt: epochMs("created_at").notNull(),
  createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
});

export const instrumentContracts = pgTable("instrument_contracts", {
  key: text("key").primaryKey(),
  contract: text("contract").notNull(),
  expiry: text("expiry"),
  seenAt: epochMs("seen_at").notNull(),
});

export const instrumentRolls = pgTable(
  "instrument_rolls",
  {
    id: serial("id"),
    key: text("key").notNull(),
    at: epochMs("at").notNull(),
    fromContract: text("from_contract").notNull(),
    toContract: text("to_contract").notNull(),
  },
  (table) => [
    index("instrument_rolls_key_at_idx").on(table.key, table.at),
    index("instrument_rolls_at_idx").on(table.at),
  ],
);

export const contractCandles = pgTable(
  "contract_candles",
  {
    key: text("key").notNull(),
    contract: text("contract").notNull(),
    timestamp: epochMs("timestamp").notNull(),
    open: doublePrecision("open").notNull(),
    high: doublePrecision("high").notNull(),
    low: doublePrecision("low").notNull(),
    close: doublePrecision("close").notNull(),
    source: text("source", { enum: CANDLE_SOURCES }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.contract, table.timestamp] }),
    index("contract_candles_key_timestamp_idx").on(table.key, table.timestamp),
  ],
);

export const spreadDefinitions = pgTable(
  "spread_definitions",
  {
    id: serial("id"),
    ownerId: owner().notNull(),
    name: text("name").notNull(),
    legs: text("legs").notNull(),
    formula: text("formula").notNull(),
    shared: flag("shared").notNull().default(false),
    createdAt: epochMs("created_at").notNull(),
    updatedAt: epochMs("updated_at").notNull(),
  },
  (table) => [index("spread_definitions_user_id_idx").on(table.ownerId)],
);

export const positions = pgTable(
  "positions",
  {
    id: serial("id"),
    ownerId: owner().notNull(),
    spread: text("spread").notNull(),
    side: text("side", { enum: POSITION_SIDES }).notNull(),
    lots: integer("lots").notNull(),
    entry: doublePrecision("entry").notNull(),
    units: doublePrecision("units").notNull(),
    legs: text("legs").notNull(),
    note: text("note").notNull().default(""),
    targetInr: doublePrecision("target_inr"),
    stopInr: doublePrecision("stop_inr"),
    openedAt: epochMs("opened_at").notNull(),
    campaignId: integer("campaign_id").notNull(),
    rolledFromId: integer("rolled_from_id"),
    status: text("status", { enum: POSITION_STATUSES }).notNull().default("open"),
    closedAt: epochMs("closed_at"),
    /** The live-order campaign whose fills opened it; null: a paper position. */
    executionId: text("execution_id"),
    /** The campaign's slippage against its targeted spread, in ticks (live positions). */
    slippageTicks: doublePrecision("slippage_ticks"),
  },
  (table) => [
    index("positions_user_id_status_idx").on(table.ownerId, table.status),
    index("positions_spread_status_idx").on(table.spread, table.status),
    uniqueIndex("positions_execution_id_idx").on(table.executionId),
  ],
);

export const positionCloses = pgTable(
  "position_closes",
  {
    id: serial("id"),
    positionId: integer("position_id")
      .notNull()
      .references(() => positions.id, { onDelete: "cascade" }),
    ownerId: owner().notNull(),
    lots: integer("lots").notNull(),
    exit: doublePrecision("exit").notNull(),
    realisedInr: doublePrecision("realised_inr").notNull(),
    closedAt: epochMs("closed_at").notNull(),
    reason: text("reason", { enum: CLOSE_REASONS }).notNull(),
  },
  (table) => [
    index("position_closes_user_id_idx").on(table.ownerId, table.closedAt),
    index("position_closes_position_id_idx").on(table.positionId),
  ],
);

export const executions = pgTable(
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
