import { START_ENV } from "../../../scripts/production-build.mjs";

/**
 * What every server a test starts gets in its environment besides its own settings: what
 * `pnpm start` sets (START_ENV: glibc's malloc arenas), so a test's server process is the one
 * `pnpm start` runs; and passwords hashed at scrypt's lowest cost (PASSWORD_HASH_COST=10, ~1.5 ms
 * a hash instead of ~100 ms), the way Rails (`min_cost`) and Django (a fast hasher) run their
 * tests. The logins, user creations and password changes of a run were a quarter of the api
 * tests' CPU (BENCHMARKS.md §33). The code path is the one that ships; auth.test.ts proves the
 * default cost a server starts with.
 */
export const TEST_SERVER_ENV = { ...START_ENV, PASSWORD_HASH_COST: "10" } as const;

/**
 * A run on another date (`pnpm test:at`, scripts/test-at.mjs) moves the clock of every process
 * it starts with libfaketime: LD_PRELOAD names the library, FAKETIME the shift ("+seconds").
 * On today's date this is empty.
 */
export function shiftedClockEnv(): Record<string, string> {
  const { LD_PRELOAD, FAKETIME, FAKETIME_DONT_FAKE_MONOTONIC } = process.env;
  if (!LD_PRELOAD?.includes("faketime") || !FAKETIME) return {};
  return {
    LD_PRELOAD,
    FAKETIME,
    FAKETIME_DONT_FAKE_MONOTONIC: FAKETIME_DONT_FAKE_MONOTONIC ?? "1",
  };
}

/**
 * The start of the environment of a process a test starts with an environment of its own (the
 * production start, a CLI): PATH, and the run's clock, so that it and its test agree on the date.
 */
export function processEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? "", ...shiftedClockEnv() };
}

/** `env` without the moved clock: for Redis and Chromium, which libfaketime breaks (test-at.mjs). */
export function withRealClock(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (!env.LD_PRELOAD?.includes("faketime")) return env;
  const { LD_PRELOAD: _preload, ...rest } = env;
  return rest;
}

/** How far a `pnpm test:at` run moved the clock, in ms; 0 on today's date. */
export function clockShiftMs(): number {
  const shift = shiftedClockEnv().FAKETIME;
  if (shift === undefined) return 0;
  if (!/^\+\d+$/.test(shift)) {
    throw new Error(`FAKETIME=${shift}: expected "+seconds", as test-at.mjs sets it`);
  }
  return Number(shift) * 1000;
}

/**
 * For a server that plays the fixed days of November 2026 in `test/fixtures/*.csv` and
 * `crossing-replay.ts`: history kept for a century. At the default 400 days a server starting
 * from 2027-12-25 on prunes those days as too old, and the tests that restart over them or rank
 * a spread against them failed from that day on (found with `pnpm test:at "2028-02-28 18:24"`).
 */
export const FIXED_DAYS_ENV = { HISTORY_RETENTION_DAYS: "36500" } as const;
