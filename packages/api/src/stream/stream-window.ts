import { type IntervalHistogram, monitorEventLoopDelay } from "node:perf_hooks";

/** How often the window is reconsidered (ms). */
const CHECK_EVERY_MS = 500;
/** Loop delay (p99 over the last check) above which the window may open, below which it closes. */
const OPEN_ABOVE_LAG_MS = 30;
const CLOSE_BELOW_LAG_MS = 10;
/** Share of the time spent writing to clients above which lag is blamed on the fan-out. */
const OPEN_ABOVE_SHARE = 0.5;
const CLOSE_BELOW_SHARE = 0.2;

/**
 * The stream's coalescing window: at most one message per client per `current` ms. While the
 * event loop keeps up it is closed (0): every version goes out at once, and a client gets several
 * versions folded into one message only when its own socket has not taken the last one (see
 * SnapshotBroadcaster). Every message is one write syscall per client (profiled: two thirds and
 * more of the server at 10,000 clients is the kernel's write), so with thousands of clients the
 * fan-out itself can fill the loop.
 *
 * The rule, every 500 ms: when the loop's p99 delay exceeded 30 ms AND writing to clients took
 * over half of that time, the window opens at `size` (docs/design.md §3's 25 ms, leading edge first:
 * a change after a quiet spell still goes out at once); when the delay stayed under 10 ms or the
 * writes took under 20 %, it closes; otherwise it holds (no flapping). A loop that lags for
 * another reason (a busy machine, a backfill) does not open it: it would only delay the few
 * clients there are. It opens no wider: with the simulator's 50 ms steps a wider window delays
 * every other step by a whole window, which a loaded loop already merges by running late.
 */
export class StreamWindow {
  current = 0;
  private readonly delay: IntervalHistogram;
  private readonly timer: NodeJS.Timeout;
  private writingMs = 0;
  private since = performance.now();

  constructor(private readonly size: number) {
    this.delay = monitorEventLoopDelay({ resolution: 10 });
    this.delay.enable();
    this.timer = setInterval(() => this.check(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  /** Counts a pass of writes to clients. */
  wrote(ms: number): void {
    this.writingMs += ms;
  }

  private check(): void {
    const now = performance.now();
    const share = this.writingMs / Math.max(1, now - this.since);
    this.writingMs = 0;
    this.since = now;
    this.reconsider(this.delay.percentile(99) / 1e6, share);
    this.delay.reset();
  }

  /** Applies the rule above to one check's loop delay and writing share (exposed for its test). */
  reconsider(lagMs: number, writingShare: number): void {
    if (lagMs > OPEN_ABOVE_LAG_MS && writingShare > OPEN_ABOVE_SHARE) this.current = this.size;
    else if (lagMs < CLOSE_BELOW_LAG_MS || writingShare < CLOSE_BELOW_SHARE) this.current = 0;
  }

  close(): void {
    clearInterval(this.timer);
    this.delay.disable();
  }
}
