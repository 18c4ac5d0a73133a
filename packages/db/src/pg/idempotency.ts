import { and, count, eq, lte, sql } from "drizzle-orm";
import type { IdempotentOutcome } from "../idempotency-keys.ts";
import type { IdempotencyStore, Store } from "../store/store.ts";
import type { PgDb } from "./connection.ts";
import { idempotencyKeys } from "./schema/index.ts";

/** `bind` makes the Store the create callback gets, on the same transaction. */
export function pgIdempotency(db: PgDb, bind: (tx: PgDb) => Store): IdempotencyStore {
  return {
    runOnce: <T>(
      claim: Parameters<IdempotencyStore["runOnce"]>[0],
      create: (store: Store) => Promise<T>,
    ) =>
      db.transaction(async (tx): Promise<IdempotentOutcome<T>> => {
        const { userId, key, fingerprint, now } = claim;
        // Requests with one key queue here (on any instance) until the first has committed,
        // so the second finds its answer instead of creating again.
        await tx.execute(
          sql`SELECT pg_advisory_xact_lock(hashtextextended(${`idempotency:${userId}:${key}`}, 0))`,
        );
        await tx.delete(idempotencyKeys).where(lte(idempotencyKeys.createdAt, now - claim.ttlMs));
        const [earlier] = await tx
          .select()
          .from(idempotencyKeys)
          .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
        if (earlier) {
          if (earlier.fingerprint !== fingerprint) return { kind: "mismatch" };
          return { kind: "replayed", response: JSON.parse(earlier.response) as unknown };
        }
        const response = await create(bind(tx));
        await tx
          .insert(idempotencyKeys)
          .values({ userId, key, fingerprint, response: JSON.stringify(response), createdAt: now });
        return { kind: "created", response };
      }),
    async count() {
      const [row] = await db.select({ n: count() }).from(idempotencyKeys);
      return row?.n ?? 0;
    },
  };
}
