import { and, count, desc, eq, gt, lte } from "drizzle-orm";
import type { Database } from "./connection.ts";
import { loginAttempts } from "./schema/index.ts";

/** How many attempts a window allows, per (username, address) and per address. */
export interface LoginLimits {
  perUserAddress: number;
  perAddress: number;
  windowMs: number;
}

export interface LoginAttempt {
  usernameKey: string;
  address: string;
  now: number;
}

export type LoginAttemptVerdict =
  | { allowed: true }
  | { allowed: false; scope: "user_address" | "address"; retryAfterMs: number };

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * When a scope is full: the limit-th most recent attempt in the window. Once it ages out the
 * scope has room again, so that moment is the honest Retry-After.
 */
function fullUntil(
  tx: Transaction,
  where: ReturnType<typeof and>,
  limit: number,
  windowMs: number,
): number | undefined {
  const row = tx
    .select({ at: loginAttempts.attemptedAt })
    .from(loginAttempts)
    .where(where)
    .orderBy(desc(loginAttempts.attemptedAt))
    .limit(1)
    .offset(limit - 1)
    .get();
  return row && row.at + windowMs;
}

/**
 * Checks the limits and, if there is room, records the attempt, in one immediate transaction:
 * of any number of concurrent attempts (in this process or another on the same file) at most
 * the limit get through. Also forgets attempts older than the window, which keeps the table
 * bounded by what the limits let in.
 */
export function beginLoginAttempt(
  db: Database,
  attempt: LoginAttempt,
  limits: LoginLimits,
): LoginAttemptVerdict {
  const { usernameKey, address, now } = attempt;
  const since = now - limits.windowMs;
  return db.transaction(
    (tx) => {
      tx.delete(loginAttempts).where(lte(loginAttempts.attemptedAt, since)).run();
      const recent = gt(loginAttempts.attemptedAt, since);
      const fromAddress = eq(loginAttempts.address, address);
      const pair = and(eq(loginAttempts.usernameKey, usernameKey), fromAddress, recent);
      const pairFull = fullUntil(tx, pair, limits.perUserAddress, limits.windowMs);
      if (pairFull !== undefined)
        return { allowed: false, scope: "user_address", retryAfterMs: pairFull - now };
      const addressFull = fullUntil(
        tx,
        and(fromAddress, recent),
        limits.perAddress,
        limits.windowMs,
      );
      if (addressFull !== undefined)
        return { allowed: false, scope: "address", retryAfterMs: addressFull - now };
      tx.insert(loginAttempts).values({ usernameKey, address, attemptedAt: now }).run();
      return { allowed: true };
    },
    { behavior: "immediate" },
  );
}

/** A successful login: its (username, address) pair starts afresh; the address's other attempts stay. */
export function clearLoginAttempts(db: Database, usernameKey: string, address: string): number {
  return db
    .delete(loginAttempts)
    .where(and(eq(loginAttempts.usernameKey, usernameKey), eq(loginAttempts.address, address)))
    .run().changes;
}

export function countLoginAttempts(db: Database): number {
  return db.select({ n: count() }).from(loginAttempts).get()?.n ?? 0;
}
