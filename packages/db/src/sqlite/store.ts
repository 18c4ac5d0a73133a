import { and, eq, lte } from "drizzle-orm";
import * as alerts from "../alerts.ts";
import * as candles from "../candles.ts";
import { type Database, type DatabaseHandle, isUniqueViolation } from "../connection.ts";
import * as firings from "../firings.ts";
import * as idempotency from "../idempotency-keys.ts";
import {
  deleteKeyValue,
  deleteKeyValuesSetBefore,
  getKeyValue,
  setKeyValue,
} from "../key-values.ts";
import * as loginAttempts from "../login-attempts.ts";
import * as claims from "../outbox-claims.ts";
import { idempotencyKeys } from "../schema/index.ts";
import * as sessions from "../sessions.ts";
import { listSpreadMarks, saveSpreadMarks } from "../spread-marks.ts";
import type { Store } from "../store/store.ts";
import { UsernameTakenError } from "../store/store.ts";
import * as telegram from "../telegram.ts";
import * as users from "../users.ts";
import * as webhooks from "../webhooks.ts";
import { Gate } from "./gate.ts";

/**
 * The embedded adapter: today's synchronous query modules behind the async port. Exported for
 * the api's switch-over: wrapping the handle it already has keeps one connection per process
 * (a second one would block the event loop in SQLite's busy wait during an idempotent create).
 */
export function sqliteStore(handle: DatabaseHandle): Store {
  return bind(handle.db, new Gate(), async () => handle.close());
}

/**
 * `gate` is undefined for the store handed to an idempotent create: it runs inside the open
 * transaction, which the outer gate already holds.
 */
function bind(db: Database, gate: Gate | undefined, close: () => Promise<void>): Store {
  const run = <T>(work: () => T): Promise<T> =>
    gate ? gate.pass(work) : Promise.resolve().then(work);
  const transaction = <T>(work: () => T): T => db.transaction(() => work());

  const store: Store = {
    kind: "sqlite",
    users: {
      create: (user) =>
        run(() => {
          try {
            return users.createUser(db, user);
          } catch (error) {
            if (isUniqueViolation(error)) throw new UsernameTakenError(user.username);
            throw error;
          }
        }),
      findByUsername: (username) => run(() => users.findUserByUsername(db, username)),
      findById: (id) => run(() => users.findUserById(db, id)),
      list: () => run(() => users.listUsers(db)),
      count: () => run(() => users.countUsers(db)),
      setPermission: (id, permission, value) =>
        run(() => users.setUserPermission(db, id, permission, value)),
      setPasswordHash: (id, hash) => run(() => users.setPasswordHash(db, id, hash)),
      changePassword: (id, hash, now, keepSessionId) =>
        run(() =>
          transaction(() => {
            if (!users.setPasswordHash(db, id, hash)) return false;
            sessions.deleteUserSessions(db, id, "password_changed", now, keepSessionId);
            return true;
          }),
        ),
      delete: (id, now) =>
        run(() =>
          transaction(() => {
            sessions.deleteUserSessions(db, id, "user_deleted", now);
            return users.deleteUser(db, id);
          }),
        ),
    },
    sessions: {
      create: (userId, id, now) => run(() => sessions.createSession(db, userId, id, now)),
      find: (id) => run(() => sessions.findSession(db, id)),
      findEnd: (id) => run(() => sessions.findSessionEnd(db, id)),
      touch: (id, now) => run(() => sessions.touchSession(db, id, now)),
      end: (id, reason, now) => run(() => sessions.deleteSession(db, id, reason, now)),
      endAllOfUser: (userId, reason, now, keepId) =>
        run(() => sessions.deleteUserSessions(db, userId, reason, now, keepId)),
      endIdleSince: (cutoff, now) => run(() => sessions.deleteSessionsIdleSince(db, cutoff, now)),
      pruneEnds: (cutoff) => run(() => sessions.pruneSessionEnds(db, cutoff)),
    },
    alerts: {
      listByUser: (userId) => run(() => alerts.listUserAlerts(db, userId)),
      countByUser: (userId) => run(() => alerts.countUserAlerts(db, userId)),
      find: (userId, id) => run(() => alerts.findUserAlert(db, userId, id)),
      create: (userId, settings, now, maxPerUser) =>
        run(() =>
          transaction(() => {
            if (maxPerUser !== undefined && alerts.countUserAlerts(db, userId) >= maxPerUser)
              return undefined;
            return alerts.createAlert(db, userId, settings, now);
          }),
        ),
      update: (userId, id, patch, now) => run(() => alerts.updateAlert(db, userId, id, patch, now)),
      delete: (userId, id) => run(() => alerts.deleteAlert(db, userId, id)),
      recordBrowserTrigger: (userId, id, now, firing) =>
        run(() => alerts.recordBrowserTrigger(db, userId, id, now, firing)),
      listWatched: (userId) => run(() => alerts.listWatchedAlerts(db, userId)),
      recordFirings: (firings, marks) =>
        run(() =>
          transaction(() => {
            const recorded = alerts.recordFirings(db, firings);
            if (marks) saveSpreadMarks(db, marks);
            return recorded;
          }),
        ),
      recordHeld: (entries) => run(() => alerts.recordHeld(db, entries)),
    },
    firings: {
      list: (userId, page) => run(() => firings.listFirings(db, userId, page)),
    },
    spreadMarks: {
      list: () => run(() => listSpreadMarks(db)),
      save: (marks) => run(() => saveSpreadMarks(db, marks)),
    },
    telegramLinks: {
      find: (userId) => run(() => telegram.findTelegramLink(db, userId)),
      save: (userId, chatId, now) => run(() => telegram.saveTelegramLink(db, userId, chatId, now)),
      delete: (userId) => run(() => telegram.deleteTelegramLink(db, userId)),
    },
    outbox: {
      claim: (claim) => run(() => claims.claimOutbox(db, claim)),
      markSent: (id, instanceId, now) => run(() => claims.markClaimedSent(db, id, instanceId, now)),
      markRetry: (id, instanceId, error, nextAttemptAt) =>
        run(() => claims.markClaimedRetry(db, id, instanceId, error, nextAttemptAt)),
      markFailed: (id, instanceId, error, now) =>
        run(() => claims.markClaimedFailed(db, id, instanceId, error, now)),
      renew: (ids, instanceId, until) => run(() => claims.renewClaims(db, ids, instanceId, until)),
      release: (instanceId, channel) => run(() => claims.releaseClaims(db, instanceId, channel)),
      backlog: () => run(() => claims.outboxBacklog(db)),
      list: () => run(() => telegram.listOutbox(db)),
    },
    webhooks: {
      get: (userId) => run(() => webhooks.findWebhook(db, userId)),
      save: (userId, url, secret, now) =>
        run(() => webhooks.saveWebhook(db, userId, url, secret, now)),
      delete: (userId) => run(() => webhooks.deleteWebhook(db, userId)),
    },
    candles: {
      save: (rows) => run(() => candles.saveCandles(db, rows)),
      recent: (query) => run(() => candles.recentCandles(db, query)),
      has: (timeframe) => run(() => candles.hasCandles(db, timeframe)),
      prune: (timeframe, cutoff) => run(() => candles.pruneCandles(db, timeframe, cutoff)),
      all: (symbol, timeframe) => run(() => candles.allCandles(db, symbol, timeframe)),
    },
    loginAttempts: {
      begin: (attempt, limits) => run(() => loginAttempts.beginLoginAttempt(db, attempt, limits)),
      clear: (usernameKey, address) =>
        run(() => loginAttempts.clearLoginAttempts(db, usernameKey, address)),
      count: () => run(() => loginAttempts.countLoginAttempts(db)),
    },
    idempotency: {
      runOnce: (claim, create) =>
        gate ? gate.exclusive(() => runOnce(db, claim, create)) : runOnce(db, claim, create),
      count: () => run(() => idempotency.countIdempotencyKeys(db)),
    },
    keyValues: {
      get: <T>(key: string) => run(() => getKeyValue(db, key) as T | undefined),
      set: (key, value, now) => run(() => setKeyValue(db, key, value, now)),
      delete: (key) => run(() => deleteKeyValue(db, key)),
      deleteSetBefore: (prefix, before) => run(() => deleteKeyValuesSetBefore(db, prefix, before)),
    },
    close: () => (gate ? gate.pass(() => undefined).then(close) : Promise.resolve()),
  };
  return store;
}

/**
 * idempotency-keys.ts's runOnce, for a create that awaits: BEGIN IMMEDIATE by hand (a
 * better-sqlite3 transaction cannot span an await), with the gate keeping every other call out.
 * Nested transactions inside `create` become savepoints.
 */
async function runOnce<T>(
  db: Database,
  claim: idempotency.IdempotencyClaim,
  create: (store: Store) => Promise<T>,
): Promise<idempotency.IdempotentOutcome<T>> {
  const sqlite = db.$client;
  const nested = sqlite.inTransaction;
  const begin = nested ? "SAVEPOINT run_once" : "BEGIN IMMEDIATE";
  const commit = nested ? "RELEASE run_once" : "COMMIT";
  const rollback = nested ? "ROLLBACK TO run_once; RELEASE run_once" : "ROLLBACK";
  sqlite.exec(begin);
  try {
    const { userId, key, fingerprint, now } = claim;
    db.delete(idempotencyKeys)
      .where(lte(idempotencyKeys.createdAt, now - claim.ttlMs))
      .run();
    const earlier = db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
      .get();
    let outcome: idempotency.IdempotentOutcome<T>;
    if (earlier) {
      outcome =
        earlier.fingerprint === fingerprint
          ? { kind: "replayed", response: JSON.parse(earlier.response) as unknown }
          : { kind: "mismatch" };
    } else {
      const response = await create(bind(db, undefined, async () => {}));
      db.insert(idempotencyKeys)
        .values({ userId, key, fingerprint, response: JSON.stringify(response), createdAt: now })
        .run();
      outcome = { kind: "created", response };
    }
    sqlite.exec(commit);
    return outcome;
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec(rollback);
    throw error;
  }
}
