/**
 * Wall-clock epoch milliseconds with sub-millisecond resolution, comparable across processes on
 * one machine. `performance.timeOrigin` is itself off by up to a couple of milliseconds from the
 * system clock, so instead we catch the instant `Date.now()` ticks and count from there with the
 * monotonic clock.
 */
export function createPreciseClock(): () => number {
  const start = Date.now();
  let tick = start;
  let at = performance.now();
  while (tick === start) {
    at = performance.now();
    tick = Date.now();
  }
  return () => tick + (performance.now() - at);
}
