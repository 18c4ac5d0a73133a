import {
  and,
  type Column,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  ne,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import type { OutboxChannel } from "./enums.ts";
import type { CandleQuery, OutboxClaim } from "./store.ts";
import type { FiringPage, LoginAttempt } from "./types.ts";

// Query conditions and column lists that are the same on both dialects, written once against
// column arguments: each adapter passes its own table and runs the query its own way.

type Columns<K extends string> = Record<K, Column>;

/** The same keys of a table's columns: a select list that reads the same on both engines. */
export function pick<T extends object, K extends keyof T>(table: T, keys: readonly K[]) {
  return Object.fromEntries(keys.map((key) => [key, table[key]])) as Pick<T, K>;
}

type UserColumns = Columns<"id" | "username" | "passwordHash" | "isAdmin" | "alertsEnabled">;
/** A user's columns; the summary's leave out the password hash. */
export const userColumns = <T extends UserColumns & Columns<"createdAt">>(users: T) =>
  pick(users, ["id", "username", "passwordHash", "isAdmin", "alertsEnabled", "createdAt"]);
export const summaryColumns = <T extends UserColumns & Columns<"createdAt">>(users: T) =>
  pick(users, ["id", "username", "isAdmin", "alertsEnabled", "createdAt"]);

/** A user's sessions, but `keepId`'s. */
export function sessionsOf(sessions: Columns<"id" | "userId">, userId: number, keepId?: string) {
  const theirs = eq(sessions.userId, userId);
  return keepId ? and(theirs, ne(sessions.id, keepId)) : theirs;
}

/** The user's alert `id`: another user's alert is not found, so ids reveal nothing. */
export const owned = (alerts: Columns<"id" | "userId">, userId: number, id: number) =>
  and(eq(alerts.id, id), eq(alerts.userId, userId));

/**
 * Which alerts the server watches: enabled, the owner allowed alerts, and at least one usable
 * channel (Telegram on with a linked chat, or webhook on with a webhook set); optionally one
 * user's only. `telegram` and `webhook` say per row whether that channel is usable.
 */
export function watchedFilter(
  alerts: Columns<"enabled" | "userId" | "telegramNotify" | "webhookNotify">,
  alertsEnabled: Column,
  chatId: Column,
  webhookOwner: Column,
  userId?: number,
) {
  const telegram = and(eq(alerts.telegramNotify, true), isNotNull(chatId)) as SQL;
  const webhook = and(eq(alerts.webhookNotify, true), isNotNull(webhookOwner)) as SQL;
  const where = and(
    eq(alerts.enabled, true),
    eq(alertsEnabled, true),
    or(telegram, webhook),
    userId === undefined ? undefined : eq(alerts.userId, userId),
  );
  return { telegram, webhook, where };
}

/**
 * Which of a user's History rows a page reads (`before`, or the rest of a `sameTime` group).
 */
export function firingPageFilter(
  columns: Columns<"userId" | "firedAt" | "id">,
  userId: number,
  page: FiringPage,
) {
  const owner = eq(columns.userId, userId);
  const { sameTime, before } = page;
  if (sameTime) {
    return and(owner, eq(columns.firedAt, sameTime.firedAt), lt(columns.id, sameTime.belowId));
  }
  return before === undefined ? owner : and(owner, lt(columns.firedAt, before));
}

type OutboxColumns = Columns<
  "id" | "userId" | "channel" | "sentAt" | "failedAt" | "nextAttemptAt" | "claimedBy"
> &
  Columns<"claimedUntil" | "attempts">;

/** What the History reads of an outbox row, and of which firings'. */
export const outboxStates = <T extends OutboxColumns & Columns<"firingId">>(outbox: T) =>
  pick(outbox, ["firingId", "channel", "attempts", "sentAt", "failedAt"]);

/**
 * The outbox's conditions and changes over one dialect's table: which rows a claim, a mark, a
 * renewal or a release touches, and what it sets.
 */
export function outboxQueries(outbox: OutboxColumns) {
  const ofChannel = (channel?: OutboxChannel) =>
    channel === undefined ? undefined : eq(outbox.channel, channel);
  const released = { claimedBy: null, claimedUntil: null };
  return {
    /** Rows not sent and not given up, of every channel or only `channel`'s. */
    unsent: (channel?: OutboxChannel) =>
      and(ofChannel(channel), isNull(outbox.sentAt), isNull(outbox.failedAt)),
    /**
     * Rows a claim may take: unsent, due, with a free or run-out lease; with `oldestPerUser`
     * only `heads`, each user's oldest unsent row (a later one waits behind it, in flight or
     * backing off).
     */
    claimable: (claim: OutboxClaim, heads: SQLWrapper) =>
      and(
        ofChannel(claim.channel),
        isNull(outbox.sentAt),
        isNull(outbox.failedAt),
        lte(outbox.nextAttemptAt, claim.now),
        or(isNull(outbox.claimedUntil), lte(outbox.claimedUntil, claim.now)),
        claim.oldestPerUser ? inArray(outbox.id, heads) : undefined,
      ),
    claimed: (claim: OutboxClaim) => ({
      claimedBy: claim.instanceId,
      claimedUntil: claim.now + claim.leaseMs,
    }),
    /** Row `id`, while `instanceId` holds it. */
    mine: (id: number, instanceId: string) =>
      and(eq(outbox.id, id), eq(outbox.claimedBy, instanceId)),
    sent: (now: number) => ({ sentAt: now, ...released }),
    retry: (error: string, nextAttemptAt: number) => ({
      attempts: sql`${outbox.attempts} + 1`,
      lastError: error,
      nextAttemptAt,
      ...released,
    }),
    failed: (error: string, now: number) => ({ failedAt: now, lastError: error, ...released }),
    /** The rows of `ids` that `instanceId` still holds, unsent. */
    renewable: (ids: readonly number[], instanceId: string) =>
      and(inArray(outbox.id, [...ids]), eq(outbox.claimedBy, instanceId), isNull(outbox.sentAt)),
    /** Every row `instanceId` still holds unsent (of `channel`), and giving them back. */
    heldBy: (instanceId: string, channel?: OutboxChannel) =>
      and(eq(outbox.claimedBy, instanceId), ofChannel(channel), isNull(outbox.sentAt)),
    released,
  };
}

type CandleColumns = Columns<"symbol" | "timeframe" | "timestamp" | "open" | "high" | "low">;

/** A symbol's candles of a timeframe in [from, to). */
export const candleRange = (candles: CandleColumns, query: Omit<CandleQuery, "limit">) =>
  and(
    eq(candles.symbol, query.symbol),
    eq(candles.timeframe, query.timeframe),
    query.from === undefined ? undefined : gte(candles.timestamp, query.from),
    query.to === undefined ? undefined : lt(candles.timestamp, query.to),
  );

export const ohlc = <T extends CandleColumns & Columns<"close">>(candles: T) =>
  pick(candles, ["timestamp", "open", "high", "low", "close"]);

/**
 * Each distinct value of an index's leading column, one index seek apiece (a "loose index scan":
 * SQLite has no skip scan without ANALYZE's statistics), for statements that must name it.
 */
export const distinctLeading = (table: string, column: string) =>
  `WITH RECURSIVE each_value(value) AS (
     SELECT min(${column}) FROM ${table}
     UNION ALL
     SELECT (SELECT min(${column}) FROM ${table} WHERE ${column} > each_value.value)
     FROM each_value WHERE each_value.value IS NOT NULL
   ) SELECT value FROM each_value WHERE value IS NOT NULL`;

/** A timeframe's candles that start before `cutoff`. */
export const candlesBefore = (candles: CandleColumns, timeframe: string, cutoff: number) =>
  and(eq(candles.timeframe, timeframe), lt(candles.timestamp, cutoff));

type AttemptColumns = Columns<"usernameKey" | "address" | "attemptedAt">;

/** The attempts a login's two limits count: its (username, address) pair's and its address's. */
export function attemptScopes(attempts: AttemptColumns, attempt: LoginAttempt, since: number) {
  const recent = gt(attempts.attemptedAt, since);
  const fromAddress = eq(attempts.address, attempt.address);
  return {
    pair: and(eq(attempts.usernameKey, attempt.usernameKey), fromAddress, recent),
    address: and(fromAddress, recent),
  };
}

/** A (username, address) pair's attempts. */
export const attemptsOf = (attempts: AttemptColumns, usernameKey: string, address: string) =>
  and(eq(attempts.usernameKey, usernameKey), eq(attempts.address, address));

/** A user's key. */
export const keyOf = (keys: Columns<"userId" | "key">, userId: number, key: string) =>
  and(eq(keys.userId, userId), eq(keys.key, key));

/** `column` starts with `prefix`, compared exactly (LIKE would read `_` and `%` as wildcards). */
export const startsWith = (column: Column, prefix: string): SQL =>
  sql`substr(${column}, 1, ${prefix.length}) = ${prefix}`;

/** Keys starting with `prefix` last set before `before`. */
export const setBefore = (
  keyValues: Columns<"key" | "updatedAt">,
  prefix: string,
  before: number,
) => and(startsWith(keyValues.key, prefix), lt(keyValues.updatedAt, before));

/** The upsert of a key's value that replaces only a value set before `staleBefore`. */
export const staleUpsert = <T extends Columns<"key" | "updatedAt">>(
  keyValues: T,
  set: { value: string; updatedAt: number },
  staleBefore: number,
) => ({
  target: keyValues.key as T["key"],
  set,
  setWhere: lt(keyValues.updatedAt, staleBefore),
});

/** The upsert of a mark: only a newer (or as new) one replaces what is stored. */
export const markUpsert = <T extends Columns<"symbol" | "at">>(marks: T) => ({
  target: marks.symbol as T["symbol"],
  set: { value: sql`excluded.value`, at: sql`excluded.at` },
  setWhere: sql`excluded.at >= ${marks.at}`,
});
