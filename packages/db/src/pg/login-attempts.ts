import { count, desc, lte, type SQL, sql } from "drizzle-orm";
import { attemptScopes, attemptsOf } from "../store/queries.ts";
import { attemptRow, loginVerdict } from "../store/rules.ts";
import type { LoginAttemptStore } from "../store/store.ts";
import { changed, type PgDb } from "./connection.ts";
import { loginAttempts } from "./schema.ts";

/** When a scope is full: the limit-th most recent attempt in the window ages out. */
async function fullUntil(tx: PgDb, where: SQL | undefined, limit: number, windowMs: number) {
  const newest = tx.select({ at: loginAttempts.attemptedAt }).from(loginAttempts).where(where);
  const [row] = await newest
    .orderBy(desc(loginAttempts.attemptedAt))
    .limit(1)
    .offset(limit - 1);
  return row && row.at + windowMs;
}

export function pgLoginAttempts(db: PgDb): LoginAttemptStore {
  return {
    begin: (attempt, limits) =>
      db.transaction(async (tx) => {
        // Both limits count attempts from this address, so a transaction-scoped lock on the
        // address queues every attempt that could push either over, on every instance.
        await tx.execute(
          sql`SELECT pg_advisory_xact_lock(hashtextextended(${`login:${attempt.address}`}, 0))`,
        );
        const since = attempt.now - limits.windowMs;
        await tx.delete(loginAttempts).where(lte(loginAttempts.attemptedAt, since));
        const scopes = attemptScopes(loginAttempts, attempt, since);
        const verdict = loginVerdict(
          attempt.now,
          await fullUntil(tx, scopes.pair, limits.perUserAddress, limits.windowMs),
          await fullUntil(tx, scopes.address, limits.perAddress, limits.windowMs),
        );
        if (verdict.allowed) await tx.insert(loginAttempts).values(attemptRow(attempt));
        return verdict;
      }),
    clear: (usernameKey, address) =>
      changed(db.delete(loginAttempts).where(attemptsOf(loginAttempts, usernameKey, address))),
    async count() {
      const [row] = await db.select({ n: count() }).from(loginAttempts);
      return row?.n ?? 0;
    },
  };
}
