import { and, asc, count, eq, inArray, isNull, lte, min, or, sql } from "drizzle-orm";
import type { OutboxBacklog, OutboxChannel, OutboxStore } from "../store/store.ts";
import type { PgDb } from "./connection.ts";
import { telegramOutbox } from "./schema/index.ts";

const mine = (id: number, instanceId: string) =>
  and(eq(telegramOutbox.id, id), eq(telegramOutbox.claimedBy, instanceId));
const released = { claimedBy: null, claimedUntil: null };
/** Every channel's rows, or only `channel`'s. */
const ofChannel = (channel: OutboxChannel | undefined) =>
  channel === undefined ? undefined : eq(telegramOutbox.channel, channel);

/**
 * With `oldestPerUser`, only each user's oldest unsent row of the channel: a later row waits
 * behind an earlier one in flight (locked or leased) or in its backoff, whichever instance
 * holds it. One scan of the pending rows (their index).
 */
function oldestOfEachUser(db: PgDb, channel: OutboxChannel | undefined, oldestPerUser?: boolean) {
  if (!oldestPerUser) return undefined;
  const heads = db
    .select({ id: min(telegramOutbox.id) })
    .from(telegramOutbox)
    .where(and(ofChannel(channel), isNull(telegramOutbox.sentAt), isNull(telegramOutbox.failedAt)))
    .groupBy(telegramOutbox.userId);
  return inArray(telegramOutbox.id, heads);
}

/**
 * Claiming as graphile/worker's getJob does: due rows whose lease is free or ran out, locked
 * with SKIP LOCKED so a second sender passes over rows the first is claiming instead of waiting
 * for them (and then taking them too), stamped with who holds them and until when.
 */
export function pgOutbox(db: PgDb): OutboxStore {
  return {
    async claim({ instanceId, channel, oldestPerUser, leaseMs, limit, now }) {
      const due = db
        .select({ id: telegramOutbox.id })
        .from(telegramOutbox)
        .where(
          and(
            ofChannel(channel),
            isNull(telegramOutbox.sentAt),
            isNull(telegramOutbox.failedAt),
            lte(telegramOutbox.nextAttemptAt, now),
            or(isNull(telegramOutbox.claimedUntil), lte(telegramOutbox.claimedUntil, now)),
            oldestOfEachUser(db, channel, oldestPerUser),
          ),
        )
        .orderBy(asc(telegramOutbox.id))
        .limit(limit)
        .for("update", { skipLocked: true });
      const claimed = await db
        .update(telegramOutbox)
        .set({ claimedBy: instanceId, claimedUntil: now + leaseMs })
        .where(inArray(telegramOutbox.id, due))
        .returning();
      return claimed.sort((a, b) => a.id - b.id);
    },
    async markSent(id, instanceId, now) {
      const rows = await db
        .update(telegramOutbox)
        .set({ sentAt: now, ...released })
        .where(mine(id, instanceId))
        .returning({ id: telegramOutbox.id });
      return rows.length > 0;
    },
    async markRetry(id, instanceId, error, nextAttemptAt) {
      const rows = await db
        .update(telegramOutbox)
        .set({
          attempts: sql`${telegramOutbox.attempts} + 1`,
          lastError: error,
          nextAttemptAt,
          ...released,
        })
        .where(mine(id, instanceId))
        .returning({ id: telegramOutbox.id });
      return rows.length > 0;
    },
    async markFailed(id, instanceId, error, now) {
      const rows = await db
        .update(telegramOutbox)
        .set({ failedAt: now, lastError: error, ...released })
        .where(mine(id, instanceId))
        .returning({ id: telegramOutbox.id });
      return rows.length > 0;
    },
    async renew(ids, instanceId, until) {
      if (ids.length === 0) return 0;
      const rows = await db
        .update(telegramOutbox)
        .set({ claimedUntil: until })
        .where(
          and(
            inArray(telegramOutbox.id, [...ids]),
            eq(telegramOutbox.claimedBy, instanceId),
            isNull(telegramOutbox.sentAt),
          ),
        )
        .returning({ id: telegramOutbox.id });
      return rows.length;
    },
    async release(instanceId, channel) {
      const rows = await db
        .update(telegramOutbox)
        .set(released)
        .where(
          and(
            eq(telegramOutbox.claimedBy, instanceId),
            ofChannel(channel),
            isNull(telegramOutbox.sentAt),
          ),
        )
        .returning({ id: telegramOutbox.id });
      return rows.length;
    },
    async backlog() {
      const rows = await db
        .select({
          channel: telegramOutbox.channel,
          pending: count(),
          oldestCreatedAt: min(telegramOutbox.createdAt),
        })
        .from(telegramOutbox)
        .where(and(isNull(telegramOutbox.sentAt), isNull(telegramOutbox.failedAt)))
        .groupBy(telegramOutbox.channel);
      return rows as OutboxBacklog[];
    },
    list: () => db.select().from(telegramOutbox).orderBy(asc(telegramOutbox.id)),
  };
}
