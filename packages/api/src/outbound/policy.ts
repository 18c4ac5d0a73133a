import {
  ExponentialBackoff,
  handleWhen,
  type IPolicy,
  retry,
  TaskCancelledError,
  TimeoutStrategy,
  timeout,
  wrap,
} from "cockatiel";

export interface OutboundOptions {
  /** Attempts in all, the first included (1 = no retry). */
  attempts: number;
  /** Each attempt's signal is aborted after this long, and the attempt counts as failed. */
  attemptTimeoutMs: number;
  /** The whole call, retries and waits included, gives up after this long: for calls a user waits on. */
  deadlineMs?: number;
  /** First wait between attempts; later waits grow exponentially with jitter. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Which failures are worth another attempt (all by default); others fail at once. */
  retryIf?: (error: Error) => boolean;
}

/**
 * The one retry/timeout primitive for calls leaving the server (Telegram, Kite, Yahoo,
 * http-json). Built from cockatiel: an optional overall deadline around exponential-backoff
 * retries around a per-attempt timeout. `fn` gets a signal to pass to fetch or the client
 * library, so a timed-out attempt really stops.
 */
export function outboundPolicy(options: OutboundOptions): IPolicy {
  const retryIf = options.retryIf ?? (() => true);
  const attempt = timeout(options.attemptTimeoutMs, TimeoutStrategy.Aggressive);
  const retries = retry(
    // cockatiel 3.2.1's isTaskCancelledError checks the wrong property and never matches.
    handleWhen((error) => error instanceof TaskCancelledError || retryIf(error)),
    {
      maxAttempts: Math.max(0, options.attempts - 1),
      backoff: new ExponentialBackoff({
        initialDelay: options.initialDelayMs ?? 250,
        maxDelay: options.maxDelayMs ?? 30_000,
      }),
    },
  );
  if (options.deadlineMs === undefined) return wrap(retries, attempt);
  return wrap(timeout(options.deadlineMs, TimeoutStrategy.Aggressive), retries, attempt);
}

/** Runs `fn` under `options`; `signal` (a shutdown, say) cancels it as a whole. */
export function callOutbound<T>(
  options: OutboundOptions,
  fn: (signal: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  return outboundPolicy(options).execute(async ({ signal: attemptSignal }) => {
    try {
      return await fn(attemptSignal);
    } catch (error) {
      // fetch rejects with its own AbortError when our timeout aborts it: report the timeout.
      if (attemptSignal.aborted)
        throw new TaskCancelledError(`Timed out after ${options.attemptTimeoutMs} ms`);
      throw error;
    }
  }, signal);
}

/** The call ran out of time (an attempt's timeout with no attempts left, or the deadline). */
export function isOutboundTimeout(error: unknown): error is TaskCancelledError {
  return error instanceof TaskCancelledError;
}
