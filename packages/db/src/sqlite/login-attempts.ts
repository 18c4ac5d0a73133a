import { count, desc, lte, type SQL } from "drizzle-orm";
import { attemptScopes, attemptsOf } from "../store/queries.ts";
import { attemptRow, loginVerdict } from "../store/rules.ts";
import type { LoginAttemptStore } from "../store/store.ts";
import type { LoginAttemptVerdict } from "../store/types.ts";
import { changed, type Database } from "./connection.ts";
import { loginAttempts } from "./schema.ts";
import type { Sqlite } from "./store.ts";

/**
 * When a scope is full: the limit-th most recent attempt in the window. Once it ages out the
 * scope has room again, so that moment is the honest Retry-After.
 */
function fullUntil(db: Database, where: SQL | undefined, limit: number, windowMs: number) {
  const newest = db.select({ at: loginAttempts.attemptedAt }).from(loginAttempts).where(where);
  const row = newest
    .orderBy(desc(loginAttempts.attemptedAt))
    .limit(1)
    .offset(limit - 1)
    .get();
  return row && row.at + windowMs;
}

export function sqliteLoginAttempts({ db, run }: Sqlite): LoginAttemptStore {
  return {
    /**
     * One immediate transaction: of any number of concurrent attempts (in this process or
     * another on the same file) at most the limit get through. Also forgets attempts older than
     * the window, which keeps the table bounded by what the limits let in.
     */
    begin: (attempt, limits) =>
      run(() =>
        db.transaction(
          (): LoginAttemptVerdict => {
            const { now } = attempt;
            const since = now - limits.windowMs;
            db.delete(loginAttempts).where(lte(loginAttempts.attemptedAt, since)).run();
            const scopes = attemptScopes(loginAttempts, attempt, since);
            const verdict = loginVerdict(
              now,
              fullUntil(db, scopes.pair, limits.perUserAddress, limits.windowMs),
              fullUntil(db, scopes.address, limits.perAddress, limits.windowMs),
            );
            if (verdict.allowed) db.insert(loginAttempts).values(attemptRow(attempt)).run();
            return verdict;
          },
          { behavior: "immediate" },
        ),
      ),
    clear: (usernameKey, address) =>
      run(() =>
        changed(db.delete(loginAttempts).where(attemptsOf(loginAttempts, usernameKey, address))),
      ),
    count: () => run(() => db.select({ n: count() }).from(loginAttempts).get()?.n ?? 0),
  };
}
