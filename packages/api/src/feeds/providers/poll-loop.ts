import type { Quote } from "@spreadwatch/core";
import { Backoff } from "./backoff.ts";
import { describeError, type HealthTracker } from "./health.ts";
import { HttpError } from "./http.ts";
import type { Logger, Provider } from "./provider.ts";

export interface PollLoopOptions {
  name: string;
  intervalMs: number;
  backoff: Backoff;
  tracker: HealthTracker;
  log: Logger;
  /** One round trip; quotes go out from inside. A throw counts as a failed poll. */
  poll(signal: AbortSignal): Promise<void>;
  /** Told every wait before the next poll (tests watch the backoff through it). */
  onWait?: (ms: number, afterError: boolean) => void;
}

/**
 * Polls every `intervalMs`; after a failure waits at least the backoff's next delay or the
 * server's Retry-After, whichever is longer. Never throws; `stop` ends it and waits for it.
 */
export function startPollLoop(options: PollLoopOptions): { stop(): Promise<void> } {
  const { intervalMs, backoff, tracker, log } = options;
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const safely = (work: Promise<void>) =>
    work.catch((error) => log(`${options.name}: poll loop failed: ${describeError(error)}`));

  async function round(): Promise<void> {
    let wait = intervalMs;
    let failed = false;
    try {
      await options.poll(abort.signal);
      tracker.open();
      backoff.reset();
    } catch (error) {
      if (abort.signal.aborted) return;
      failed = true;
      tracker.fail(error);
      const retryAfter = error instanceof HttpError ? (error.retryAfterMs ?? 0) : 0;
      wait = Math.max(intervalMs, backoff.next(), retryAfter);
      log(`${options.name}: ${describeError(error)}; next try in ${(wait / 1000).toFixed(1)} s`);
    }
    if (abort.signal.aborted) return;
    options.onWait?.(wait, failed);
    timer = setTimeout(() => {
      if (failed) tracker.reconnecting();
      running = safely(round());
    }, wait);
  }

  running = safely(round());
  return {
    async stop() {
      abort.abort();
      clearTimeout(timer);
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
  random?: () => number;
  onWait?: (ms: number, afterError: boolean) => void;
}

/** A feed that runs `poll` on a poll loop with backoff and reports the tracker's health. */
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
        backoff: new Backoff({
          ...options.backoff,
          ...(options.random && { random: options.random }),
        }),
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
