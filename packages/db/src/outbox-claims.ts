import { and, asc, count, eq, inArray, isNull, lte, min, or, sql } from "drizzle-orm";
import type { Database } from "./connection.ts";
import { telegramOutbox } from "./schema/index.ts";
import type { OutboxBacklog, OutboxChannel, OutboxClaim } from "./store/store.ts";
import type { OutboxMessage } from "./telegram.ts";

/** Every channel's rows, or only `channel`'s. */
const ofChannel = (channel: OutboxChannel | undefined) =>
  channel === undefined ? undefined : eq(telegramOutbox.channel, channel);

/**
 * With `oldestPerUser`, only each user's oldest unsent row of the channel: a later row waits
 * behind an earlier one in flight or in its backoff. One scan of the pending rows (their index).
 */
function oldestOfEachUser(
  db: Database,
  channel: OutboxChannel | undefined,
  oldestPerUser?: boolean,
) {
  if (!oldestPerUser) return undefined;
  const heads = db
    .select({ id: min(telegramOutbox.id) })
    .from(telegramOutbox)
    .where(and(ofChannel(channel), isNull(telegramOutbox.sentAt), isNull(telegramOutbox.failedAt)))
    .groupBy(telegramOutbox.userId);
  return inArray(telegramOutbox.id, heads);
}

/**
 * SQLite's outbox claiming: one writer at a time, so a single UPDATE … WHERE id IN (SELECT …)
 * is already exclusive; the lease columns are kept as on PostgreSQL so both behave the same.
 */
export function claimOutbox(db: Database, claim: OutboxClaim): OutboxMessage[] {
  const due = db
    .select({ id: telegramOutbox.id })
    .from(telegramOutbox)
    .where(
      and(
        ofChannel(claim.channel),
        isNull(telegramOutbox.sentAt),
        isNull(telegramOutbox.failedAt),
        lte(telegramOutbox.nextAttemptAt, claim.now),
        or(isNull(telegramOutbox.claimedUntil), lte(telegramOutbox.claimedUntil, claim.now)),
        oldestOfEachUser(db, claim.channel, claim.oldestPerUser),
      ),
    )
    .orderBy(asc(telegramOutbox.id))
    .limit(claim.limit);
  return db
    .update(telegramOutbox)
    .set({ claimedBy: claim.instanceId, claimedUntil: claim.now + claim.leaseMs })
    .where(inArray(telegramOutbox.id, due))
    .returning()
    .all()
    .sort((a, b) => a.id - b.id);
}

const mine = (id: number, instanceId: string) =>
  and(eq(telegramOutbox.id, id), eq(telegramOutbox.claimedBy, instanceId));

const released = { claimedBy: null, claimedUntil: null };

export function markClaimedSent(
  db: Database,
  id: number,
  instanceId: string,
  now: number,
): boolean {
  return (
    db
      .update(telegramOutbox)
      .set({ sentAt: now, ...released })
      .where(mine(id, instanceId))
      .run().changes > 0
  );
}

export function markClaimedRetry(
  db: Database,
  id: number,
  instanceId: string,
  error: string,
  nextAttemptAt: number,
): boolean {
  return (
    db
      .update(telegramOutbox)
      .set({
        attempts: sql`${telegramOutbox.attempts} + 1`,
        lastError: error,
        nextAttemptAt,
        ...released,
      })
      .where(mine(id, instanceId))
      .run().changes > 0
  );
}

export function markClaimedFailed(
  db: Database,
  id: number,
  instanceId: string,
  error: string,
  now: number,
): boolean {
  return (
    db
      .update(telegramOutbox)
      .set({ failedAt: now, lastError: error, ...released })
      .where(mine(id, instanceId))
      .run().changes > 0
  );
}

/** Pushes the lease of the rows `instanceId` still holds, unsent, to `until`. */
export function renewClaims(
  db: Database,
  ids: readonly number[],
  instanceId: string,
  until: number,
): number {
  if (ids.length === 0) return 0;
  return db
    .update(telegramOutbox)
    .set({ claimedUntil: until })
    .where(
      and(
        inArray(telegramOutbox.id, [...ids]),
        eq(telegramOutbox.claimedBy, instanceId),
        isNull(telegramOutbox.sentAt),
      ),
    )
    .run().changes;
}

/** Rows an instance still holds come back at once (its sender restarted). */
export function releaseClaims(db: Database, instanceId: string, channel?: OutboxChannel): number {
  return db
    .update(telegramOutbox)
    .set(released)
    .where(
      and(
        eq(telegramOutbox.claimedBy, instanceId),
        ofChannel(channel),
        isNull(telegramOutbox.sentAt),
      ),
    )
    .run().changes;
}

/** Each channel's undelivered rows: how many, and when the oldest was queued. */
export function outboxBacklog(db: Database): OutboxBacklog[] {
  return db
    .select({
      channel: telegramOutbox.channel,
      pending: count(),
      oldestCreatedAt: min(telegramOutbox.createdAt),
    })
    .from(telegramOutbox)
    .where(and(isNull(telegramOutbox.sentAt), isNull(telegramOutbox.failedAt)))
    .groupBy(telegramOutbox.channel)
    .all() as OutboxBacklog[];
}
