import type { Store } from "../store/store.ts";
import { pgAlerts } from "./alerts.ts";
import { pgCandles } from "./candles.ts";
import { openPostgres, type PgDb } from "./connection.ts";
import { pgContractCandles } from "./contract-candles.ts";
import { pgContracts } from "./contracts.ts";
import { pgExecutions } from "./executions.ts";
import { pgFirings } from "./firings.ts";
import { pgIdempotency } from "./idempotency.ts";
import { pgInstruments } from "./instruments.ts";
import { pgKeyValues } from "./key-values.ts";
import { pgLoginAttempts } from "./login-attempts.ts";
import { pgOutbox } from "./outbox.ts";
import { pgPositions } from "./positions.ts";
import { instrumentCandles } from "./schema.ts";
import { pgSessions } from "./sessions.ts";
import { pgSpreadMarks } from "./spread-marks.ts";
import { pgSpreads } from "./spreads.ts";
import { pgTelegramLinks } from "./telegram-links.ts";
import { pgUsers } from "./users.ts";
import { pgWebhooks } from "./webhooks.ts";

/** The cluster adapter: a pg Pool through drizzle-orm/node-postgres, migrated on open. */
export async function postgresStore(url: string): Promise<Store> {
  const { db, pool } = await openPostgres(url);
  return bind(db, () => pool.end());
}

/** A store on the pool, or on one transaction of it (the idempotent create's). */
function bind(db: PgDb, close: () => Promise<void>): Store {
  return {
    kind: "postgres",
    users: pgUsers(db),
    sessions: pgSessions(db),
    alerts: pgAlerts(db),
    firings: pgFirings(db),
    spreadMarks: pgSpreadMarks(db),
    telegramLinks: pgTelegramLinks(db),
    outbox: pgOutbox(db),
    webhooks: pgWebhooks(db),
    candles: pgCandles(db),
    instrumentCandles: pgCandles(db, instrumentCandles),
    loginAttempts: pgLoginAttempts(db),
    idempotency: pgIdempotency(db, (tx) => bind(tx, async () => {})),
    keyValues: pgKeyValues(db),
    instruments: pgInstruments(db),
    contracts: pgContracts(db),
    contractCandles: pgContractCandles(db),
    spreads: pgSpreads(db),
    positions: pgPositions(db),
    executions: pgExecutions(db),
    close,
  };
}
