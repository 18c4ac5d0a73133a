import { type IntervalHistogram, monitorEventLoopDelay } from "node:perf_hooks";

/** How often the window is reconsidered (ms). */
const CHECK_EVERY_MS = 500;
/** Loop delay (p99 over the last check) above which the window may widen, below which it narrows. */
const WIDEN_ABOVE_LAG_MS = 30;
const NARROW_BELOW_LAG_MS = 10;
/** Share of the time spent writing to clients above which lag is blamed on the fan-out. */
const WIDEN_ABOVE_SHARE = 0.5;
const NARROW_BELOW_SHARE = 0.2;

/**
 * The stream's coalescing window: at most one message per client per `current` ms. While the
 * event loop keeps up it is 0: every version goes out at once, and a client is folded several
 * versions into one message only when its own socket has not taken the last one (see
 * SnapshotBroadcaster). Every message is one write syscall per client (profiled: ~75 % of the
 * server at 10,000 clients is the kernel's write), so with thousands of clients the fan-out
 * itself can fill the loop (10,000 × 20 versions/s = 200,000 writes a second); then every client
 * falls behind and new connections wait in the accept queue.
 *
 * The rule, every 500 ms: when the loop's p99 delay exceeded 30 ms AND writing to clients took
 * over half of that time, the window opens at the base (DESIGN §3's 25 ms, leading edge first)
 * and then doubles (25 → 50 → 100); when the delay stayed under 10 ms or the writes took under
 * 20 %, it halves back, and from the base closes to 0; otherwise it holds (no flapping). A loop
 * that lags for another reason (a busy machine, a backfill) does not open it: a window would only
 * delay the few clients there are. It never passes `max` (100 ms by default, the goal's whole
 * latency budget): with quotes flowing, a change waits at most one window (at most `late`,
 * 112.5 ms, when no later quote comes). Clients get fewer, merged deltas — never stale state —
 * and all the same ones, so one shared frame per version still serves all.
 */
export class StreamWindow {
  current: number;
  private readonly delay: IntervalHistogram;
  private readonly timer: NodeJS.Timeout;
  private writingMs = 0;
  private since = performance.now();

  constructor(
    private readonly base: number,
    private readonly max: number,
  ) {
    this.current = 0;
    this.delay = monitorEventLoopDelay({ resolution: 10 });
    this.delay.enable();
    this.timer = setInterval(() => this.check(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  /**
   * While widened, the window is a span around `current`, half the base on either side: a new
   * version goes to a client once `early` ms passed since its last message, a timer sends a
   * change no later version came for after `late`. Quotes arrive on a rhythm (the simulator's
   * 50 ms steps, a feed's frames); with a hard edge the timer of a 100 ms window would fire just
   * before every second step and send the state without it, so that step waited 100 ms more.
   * At the base there is no span: at most one message per `base` ms (DESIGN §3); closed (0),
   * none at all.
   */
  get early(): number {
    return this.current > this.base ? this.current - this.base / 2 : this.current;
  }

  get late(): number {
    return this.current > this.base ? this.current + this.base / 2 : this.current;
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
    if (lagMs > WIDEN_ABOVE_LAG_MS && writingShare > WIDEN_ABOVE_SHARE)
      this.current = Math.min(this.max, Math.max(this.base, this.current * 2));
    else if (lagMs < NARROW_BELOW_LAG_MS || writingShare < NARROW_BELOW_SHARE)
      this.current = this.current > this.base ? Math.max(this.base, this.current / 2) : 0;
  }

  close(): void {
    clearInterval(this.timer);
    this.delay.disable();
  }
}
