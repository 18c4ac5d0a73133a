import type { Store } from "../store/store.ts";
import { sqliteAlerts } from "./alerts.ts";
import { sqliteCandles } from "./candles.ts";
import type { Database, DatabaseHandle } from "./connection.ts";
import { sqliteContractCandles } from "./contract-candles.ts";
import { sqliteContracts } from "./contracts.ts";
import { sqliteExecutions } from "./executions.ts";
import { sqliteFirings } from "./firings.ts";
import { Gate } from "./gate.ts";
import { sqliteIdempotency } from "./idempotency.ts";
import { sqliteInstruments } from "./instruments.ts";
import { sqliteKeyValues } from "./key-values.ts";
import { sqliteLoginAttempts } from "./login-attempts.ts";
import { sqliteOutbox } from "./outbox.ts";
import { sqlitePositions } from "./positions.ts";
import { instrumentCandles } from "./schema.ts";
import { sqliteSessions } from "./sessions.ts";
import { sqliteSpreadMarks } from "./spread-marks.ts";
import { sqliteSpreads } from "./spreads.ts";
import { sqliteTelegramLinks } from "./telegram-links.ts";
import { sqliteUsers } from "./users.ts";
import { sqliteWebhooks } from "./webhooks.ts";

/** What every part of the SQLite adapter runs on: the connection, and the gate in front of it. */
export interface Sqlite {
  db: Database;
  /** Runs synchronous work once no idempotent create holds the connection's transaction. */
  run<T>(work: () => T): Promise<T>;
}

/**
 * The embedded adapter. Exported for the api's switch-over: wrapping the handle it already has
 * keeps one connection per process (a second one would block the event loop in SQLite's busy
 * wait during an idempotent create).
 */
export function sqliteStore(handle: DatabaseHandle): Store {
  const gate = new Gate();
  const store = bind(handle.db, gate);
  return { ...store, close: () => gate.pass(() => handle.close()) };
}

/**
 * `gate` is undefined for the store handed to an idempotent create: it runs inside the open
 * transaction, which the outer gate already holds.
 */
function bind(db: Database, gate?: Gate): Store {
  const on: Sqlite = {
    db,
    run: (work) => (gate ? gate.pass(work) : Promise.resolve().then(work)),
  };
  return {
    kind: "sqlite",
    users: sqliteUsers(on),
    sessions: sqliteSessions(on),
    alerts: sqliteAlerts(on),
    firings: sqliteFirings(on),
    spreadMarks: sqliteSpreadMarks(on),
    telegramLinks: sqliteTelegramLinks(on),
    outbox: sqliteOutbox(on),
    webhooks: sqliteWebhooks(on),
    candles: sqliteCandles(on),
    instrumentCandles: sqliteCandles(on, instrumentCandles),
    loginAttempts: sqliteLoginAttempts(on),
    idempotency: sqliteIdempotency(on, gate, () => bind(db)),
    keyValues: sqliteKeyValues(on),
    instruments: sqliteInstruments(on),
    contracts: sqliteContracts(on),
    contractCandles: sqliteContractCandles(on),
    spreads: sqliteSpreads(on),
    positions: sqlitePositions(on),
    executions: sqliteExecutions(on),
    close: async () => {},
  };
}
