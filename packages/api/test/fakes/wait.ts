// Written here rather than with vi.waitFor: the bench scripts (run by tsx, outside vitest) start
// their servers through test/server.ts, which waits with these, and importing vitest outside its
// runner throws ("Vitest failed to access its internal state"). Each wait has a deadline and fails
// naming what it waited for.

/** Resolves once `check` holds (polled every 10 ms); fails naming `what` after a generous deadline. */
export async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Like `until`, for a condition that needs an async look (an HTTP request). */
export async function eventually<T>(
  look: () => Promise<T>,
  check: (value: T) => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await look();
    if (check(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * How long a test of a fake that hangs lets a request go unanswered before the client under test
 * cuts it: long enough that a request the fake does answer is never cut on a loaded machine (at
 * 300 ms one was, under a CPU hog, and the test counted a retry too many), short enough to wait
 * out once.
 */
export const HANG_CUT_MS = 2_000;
