import { and, count, eq, lte } from "drizzle-orm";
import type { Database } from "./connection.ts";
import { idempotencyKeys } from "./schema/index.ts";

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

/**
 * Runs `create` at most once per (user, key) within the TTL: the check, the create and storing
 * its answer share one immediate transaction, so two concurrent requests with one key cannot
 * both create. `create` must be synchronous and use the same connection; if it throws, nothing
 * is stored and the key stays free. Expired keys are pruned on the way.
 */
export function runOnce<T>(
  db: Database,
  claim: IdempotencyClaim,
  create: () => T,
): IdempotentOutcome<T> {
  const { userId, key, fingerprint, now } = claim;
  const expired = now - claim.ttlMs;
  return db.transaction(
    (tx) => {
      tx.delete(idempotencyKeys).where(lte(idempotencyKeys.createdAt, expired)).run();
      const earlier = tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
        .get();
      if (earlier) {
        if (earlier.fingerprint !== fingerprint) return { kind: "mismatch" };
        return { kind: "replayed", response: JSON.parse(earlier.response) as unknown };
      }
      const response = create();
      tx.insert(idempotencyKeys)
        .values({ userId, key, fingerprint, response: JSON.stringify(response), createdAt: now })
        .run();
      return { kind: "created", response };
    },
    { behavior: "immediate" },
  );
}

export function countIdempotencyKeys(db: Database): number {
  return db.select({ n: count() }).from(idempotencyKeys).get()?.n ?? 0;
}
