/**
 * What every server a test starts gets in its environment besides its own settings: passwords
 * hashed at scrypt's lowest cost (PASSWORD_HASH_COST=10, ~1.5 ms a hash instead of ~100 ms), the
 * way Rails (`min_cost`) and Django (a fast hasher) run their tests. The logins, user creations
 * and password changes of a run were a quarter of the api tests' CPU (BENCHMARKS.md §33). The
 * code path is the one that ships; auth.test.ts proves the default cost a server starts with.
 */
export const TEST_SERVER_ENV = { PASSWORD_HASH_COST: "10" } as const;
