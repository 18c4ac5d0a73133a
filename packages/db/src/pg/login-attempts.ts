import { and, count, desc, eq, gt, lte, type SQL, sql } from "drizzle-orm";
import type { LoginAttemptStore } from "../store/store.ts";
import type { PgDb } from "./connection.ts";
import { loginAttempts } from "./schema/index.ts";

/** When a scope is full: the limit-th most recent attempt in the window ages out. */
async function fullUntil(tx: PgDb, where: SQL | undefined, limit: number, windowMs: number) {
  const [row] = await tx
    .select({ at: loginAttempts.attemptedAt })
    .from(loginAttempts)
    .where(where)
    .orderBy(desc(loginAttempts.attemptedAt))
    .limit(1)
    .offset(limit - 1);
  return row && row.at + windowMs;
}

export function pgLoginAttempts(db: PgDb): LoginAttemptStore {
  return {
    begin: ({ usernameKey, address, now }, limits) =>
      db.transaction(async (tx) => {
        // Both limits count attempts from this address, so a transaction-scoped lock on the
        // address queues every attempt that could push either over, on every instance.
        await tx.execute(
          sql`SELECT pg_advisory_xact_lock(hashtextextended(${`login:${address}`}, 0))`,
        );
        const since = now - limits.windowMs;
        await tx.delete(loginAttempts).where(lte(loginAttempts.attemptedAt, since));
        const recent = gt(loginAttempts.attemptedAt, since);
        const fromAddress = eq(loginAttempts.address, address);
        const pair = and(eq(loginAttempts.usernameKey, usernameKey), fromAddress, recent);
        const pairFull = await fullUntil(tx, pair, limits.perUserAddress, limits.windowMs);
        if (pairFull !== undefined)
          return { allowed: false, scope: "user_address", retryAfterMs: pairFull - now } as const;
        const all = and(fromAddress, recent);
        const addressFull = await fullUntil(tx, all, limits.perAddress, limits.windowMs);
        if (addressFull !== undefined)
          return { allowed: false, scope: "address", retryAfterMs: addressFull - now } as const;
        await tx.insert(loginAttempts).values({ usernameKey, address, attemptedAt: now });
        return { allowed: true } as const;
      }),
    async clear(usernameKey, address) {
      const result = await db
        .delete(loginAttempts)
        .where(and(eq(loginAttempts.usernameKey, usernameKey), eq(loginAttempts.address, address)));
      return result.rowCount ?? 0;
    },
    async count() {
      const [row] = await db.select({ n: count() }).from(loginAttempts);
      return row?.n ?? 0;
    },
  };
}
