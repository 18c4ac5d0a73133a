import { and, count, gt, lte, sql } from "drizzle-orm";
import { keyOf } from "../store/queries.ts";
import { earlierOutcome } from "../store/rules.ts";
import type { IdempotencyStore, Store } from "../store/store.ts";
import type { IdempotencyClaim, IdempotentOutcome } from "../store/types.ts";
import type { PgDb } from "./connection.ts";
import { idempotencyKeys as keys } from "./schema.ts";

/** `bind` makes the Store the create callback gets, on the same transaction. */
export function pgIdempotency(db: PgDb, bind: (tx: PgDb) => Store): IdempotencyStore {
  return {
    runOnce: <T>(claim: IdempotencyClaim, create: (store: Store) => Promise<T>) =>
      db.transaction(async (tx): Promise<IdempotentOutcome<T>> => {
        const { userId, key, fingerprint, now } = claim;
        // Requests with one key queue here (on any instance) until the first has committed,
        // so the second finds its answer instead of creating again.
        await tx.execute(
          sql`SELECT pg_advisory_xact_lock(hashtextextended(${`idempotency:${userId}:${key}`}, 0))`,
        );
        await tx.delete(keys).where(lte(keys.createdAt, now - claim.ttlMs));
        const [earlier] = await tx
          .select()
          .from(keys)
          .where(keyOf(keys, userId, key));
        if (earlier) return earlierOutcome(earlier, fingerprint);
        const response = await create(bind(tx));
        const stored = JSON.stringify(response);
        await tx
          .insert(keys)
          .values({ userId, key, fingerprint, response: stored, createdAt: now });
        return { kind: "created", response };
      }),
    async peek({ userId, key, fingerprint, now, ttlMs }) {
      const [earlier] = await db
        .select()
        .from(keys)
        .where(and(keyOf(keys, userId, key), gt(keys.createdAt, now - ttlMs)));
      return earlier ? earlierOutcome(earlier, fingerprint) : undefined;
    },
    async count() {
      const [row] = await db.select({ n: count() }).from(keys);
      return row?.n ?? 0;
    },
  };
}
