import { and, count, gt, lte } from "drizzle-orm";
import { keyOf } from "../store/queries.ts";
import { earlierOutcome } from "../store/rules.ts";
import type { IdempotencyStore, Store } from "../store/store.ts";
import type { IdempotencyClaim, IdempotentOutcome } from "../store/types.ts";
import type { Database } from "./connection.ts";
import type { Gate } from "./gate.ts";
import { idempotencyKeys as keys } from "./schema.ts";
import type { Sqlite } from "./store.ts";

/**
 * `gate` keeps every other call out while a create awaits inside the transaction; `bind` makes
 * the Store the create gets, on the same connection (undefined gate: it runs inside this one).
 */
export function sqliteIdempotency(
  { db, run }: Sqlite,
  gate: Gate | undefined,
  bind: () => Store,
): IdempotencyStore {
  return {
    runOnce: (claim, create) =>
      gate
        ? gate.exclusive(() => runOnce(db, claim, () => create(bind())))
        : runOnce(db, claim, () => create(bind())),
    peek: ({ userId, key, fingerprint, now, ttlMs }) =>
      run(() => {
        const earlier = db
          .select()
          .from(keys)
          .where(and(keyOf(keys, userId, key), gt(keys.createdAt, now - ttlMs)))
          .get();
        return earlier ? earlierOutcome(earlier, fingerprint) : undefined;
      }),
    count: () => run(() => db.select({ n: count() }).from(keys).get()?.n ?? 0),
  };
}

/**
 * The check, the create and storing its answer in one transaction, BEGIN IMMEDIATE by hand (a
 * better-sqlite3 transaction cannot span an await). Nested transactions inside `create` become
 * savepoints; an idempotent create inside another becomes one itself.
 */
async function runOnce<T>(
  db: Database,
  claim: IdempotencyClaim,
  create: () => Promise<T>,
): Promise<IdempotentOutcome<T>> {
  const sqlite = db.$client;
  const nested = sqlite.inTransaction;
  const begin = nested ? "SAVEPOINT run_once" : "BEGIN IMMEDIATE";
  const commit = nested ? "RELEASE run_once" : "COMMIT";
  const rollback = nested ? "ROLLBACK TO run_once; RELEASE run_once" : "ROLLBACK";
  sqlite.exec(begin);
  try {
    const { userId, key, fingerprint, now } = claim;
    db.delete(keys)
      .where(lte(keys.createdAt, now - claim.ttlMs))
      .run();
    const earlier = db
      .select()
      .from(keys)
      .where(keyOf(keys, userId, key))
      .get();
    let outcome: IdempotentOutcome<T>;
    if (earlier) outcome = earlierOutcome(earlier, fingerprint);
    else {
      const response = await create();
      db.insert(keys)
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
