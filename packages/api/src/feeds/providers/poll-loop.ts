import { setTimeout as sleep } from "node:timers/promises";
import type { Quote } from "@spreadwatch/core";
import { callOutbound } from "../../outbound/policy.ts";
import { describeError, type HealthTracker } from "./health.ts";
import { HttpError } from "./http.ts";
import type { Logger, Provider } from "./provider.ts";

/** A polled source is retried until it answers or the server stops: it has no one to give up to. */
const FOREVER = Number.MAX_SAFE_INTEGER;

export interface PollLoopOptions {
  name: string;
  intervalMs: number;
  /** Each request is cut after this long and counts as a failed poll. */
  timeoutMs: number;
  /** Waits between failed polls grow from `initialMs` to `maxMs`, with jitter. */
  backoff: { initialMs: number; maxMs: number };
  tracker: HealthTracker;
  log: Logger;
  /** One round trip; quotes go out from inside. A throw counts as a failed poll. */
  poll(signal: AbortSignal): Promise<void>;
  /** Told every wait before the next round of polls (tests watch Retry-After through it). */
  onWait?: (ms: number, afterError: boolean) => void;
}

/**
 * The server told us when to come back (Retry-After), or to slow down (429): retrying on the
 * backoff's schedule would ignore it, so the round ends and the loop waits as told.
 */
function toldToWait(error: Error): boolean {
  return error instanceof HttpError && (error.status === 429 || error.retryAfterMs !== undefined);
}

/**
 * Polls every `intervalMs`. A failed poll is retried under the outbound policy (per-request
 * timeout, exponential backoff with jitter) until one succeeds; a 429 or a Retry-After ends the
 * round and the loop waits what the server asked (or the backoff's cap). Never throws; `stop`
 * ends it at once, even mid-wait.
 */
export function startPollLoop(options: PollLoopOptions): { stop(): Promise<void> } {
  const { intervalMs, tracker, log } = options;
  const abort = new AbortController();
  let lastFailed = false;

  async function attempt(signal: AbortSignal): Promise<void> {
    if (lastFailed) tracker.reconnecting();
    try {
      await options.poll(signal);
      lastFailed = false;
      tracker.open();
    } catch (error) {
      if (abort.signal.aborted) throw error;
      lastFailed = true;
      const reason = signal.aborted
        ? new Error(`no answer within ${options.timeoutMs / 1000} s`)
        : error;
      tracker.fail(reason);
      log(`${options.name}: ${describeError(reason)}; trying again`);
      throw error;
    }
  }

  /** Polls until one poll succeeds; returns how long to wait before the next round. */
  async function round(): Promise<number> {
    try {
      await callOutbound(
        {
          attempts: FOREVER,
          attemptTimeoutMs: options.timeoutMs,
          initialDelayMs: options.backoff.initialMs,
          maxDelayMs: options.backoff.maxMs,
          retryIf: (error) => !toldToWait(error),
        },
        attempt,
        abort.signal,
      );
      return intervalMs;
    } catch (error) {
      const retryAfter = error instanceof HttpError ? error.retryAfterMs : undefined;
      return Math.max(intervalMs, retryAfter ?? options.backoff.maxMs);
    }
  }

  async function run(): Promise<void> {
    while (!abort.signal.aborted) {
      const wait = await round();
      if (abort.signal.aborted) return;
      options.onWait?.(wait, lastFailed);
      await sleep(wait, undefined, { signal: abort.signal }).catch(() => {});
    }
  }

  const stopped = new Promise<void>((resolve) =>
    abort.signal.addEventListener("abort", () => resolve(), { once: true }),
  );
  // The policy's wait between retries cannot be interrupted; `stop` does not wait for it.
  const running = Promise.race([
    run().catch((error) => log(`${options.name}: poll loop failed: ${describeError(error)}`)),
    stopped,
  ]);
  return {
    async stop() {
      abort.abort();
      await running;
    },
  };
}

/** The options every polling provider (Yahoo, http-json) shares. */
export interface PollingFeedOptions {
  name: string;
  pollMs: number;
  timeoutMs: number;
  staleAfterMs: number;
  backoff: { initialMs: number; maxMs: number };
  log?: Logger;
  now?: () => number;
  onWait?: (ms: number, afterError: boolean) => void;
}

/** A feed that runs `poll` on a poll loop and reports the tracker's health. */
export function pollingFeed(
  options: PollingFeedOptions,
  tracker: HealthTracker,
  log: Logger,
  poll: (onQuote: (quote: Quote) => void, signal: AbortSignal) => Promise<void>,
): Provider {
  let loop: { stop(): Promise<void> } | undefined;
  return {
    name: options.name,
    start(onQuote) {
      loop = startPollLoop({
        name: options.name,
        intervalMs: options.pollMs,
        timeoutMs: options.timeoutMs,
        backoff: options.backoff,
        tracker,
        log,
        poll: (signal) => poll(onQuote, signal),
        ...(options.onWait && { onWait: options.onWait }),
      });
    },
    async stop() {
      await loop?.stop();
    },
    health: () => tracker.report(),
  };
}
