import { type IntervalHistogram, monitorEventLoopDelay } from "node:perf_hooks";

/** How often the window is reconsidered, and the loop delay that moves it (ms). */
const CHECK_EVERY_MS = 500;
const WIDEN_ABOVE_MS = 30;
const NARROW_BELOW_MS = 10;

/**
 * The stream's coalescing window: at most one message per client per `current` ms. It is
 * DESIGN §3's 25 ms while the event loop keeps up. Every write is one syscall per client, so
 * with thousands of clients the fan-out itself fills the loop (10,000 clients × 20 versions/s
 * is 200,000 writes a second); then every client falls behind and new connections wait in the
 * accept queue. So: every 500 ms, when the loop's p99 delay over that time exceeded 30 ms, the
 * window doubles (25 → 50 → 100); when it stayed under 10 ms, it halves back towards 25.
 * Between the two it stays (no flapping). It never passes `max` (100 ms by default, the goal's
 * whole latency budget): a change waits at most one window, and clients get fewer, merged
 * deltas — never stale state, and the same for every client, so the one shared frame per
 * version still serves them all.
 */
export class StreamWindow {
  current: number;
  private readonly delay: IntervalHistogram;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly base: number,
    private readonly max: number,
  ) {
    this.current = base;
    this.delay = monitorEventLoopDelay({ resolution: 10 });
    this.delay.enable();
    this.timer = setInterval(() => this.reconsider(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  /** Applies the rule above to the loop delay since the last call (exposed for its test). */
  reconsider(lagMs = this.delay.percentile(99) / 1e6): void {
    this.delay.reset();
    if (lagMs > WIDEN_ABOVE_MS) this.current = Math.min(this.max, this.current * 2);
    else if (lagMs < NARROW_BELOW_MS) this.current = Math.max(this.base, this.current / 2);
  }

  close(): void {
    clearInterval(this.timer);
    this.delay.disable();
  }
}
