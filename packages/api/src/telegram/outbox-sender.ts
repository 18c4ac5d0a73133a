import type { OutboxMessage, Store } from "@spreadwatch/db";
import { log } from "../log.ts";
import {
  BACKGROUND_SEND,
  type TelegramNotifier,
  TelegramRejectedError,
  TelegramUnavailableError,
  warnTelegramUnreachable,
} from "./notifier.ts";

/** Re-check for retries that fell due even when nothing new was queued. */
const POLL_MS = 5_000;
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** A claimed row comes back to any sender after this, should this one die holding it. */
const CLAIM_LEASE_MS = 60_000;

/** After n failed attempts: 10 s, 20 s, 40 s … capped at an hour. */
export function retryDelay(attempts: number): number {
  return Math.min(10_000 * 2 ** attempts, MAX_BACKOFF_MS);
}

/**
 * Delivers queued Telegram messages oldest first, strictly one at a time: a row is marked sent
 * (its own transaction) as soon as Telegram accepted it, before the next row is even read. So a
 * crash can leave at most the one message in flight unmarked, and only that one is sent again
 * after a restart (at-least-once, at most one duplicate per crash). Runs beside the hub:
 * firings only write a row and call `wake`.
 */
export class OutboxSender {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** Cuts the message in flight short when a stop runs out of patience. */
  private readonly shutdown = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  /** While Telegram is down nothing is tried before the failed row falls due again. */
  private pausedUntil = 0;
  private unreachable = false;
  private releasedOwnClaims = false;

  constructor(
    private readonly store: Store,
    private readonly notifier: TelegramNotifier,
    /** Who claims the rows: no other instance sends them while the lease runs. */
    private readonly instanceId: string,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.wake();
  }

  /** Starts a delivery pass, or asks the running one to look again when it ends. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => log.error({ err: error }, "Telegram outbox pass failed"))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /**
   * Lets the message in flight finish for up to `graceMs`, then aborts it; resolves when the
   * sender no longer touches the database. An unsent row stays queued for the next start.
   */
  async stop(graceMs = 2_000): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    if (!this.running) return;
    let timer: NodeJS.Timeout | undefined;
    const patience = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([this.running, patience]);
    clearTimeout(timer);
    this.shutdown.abort();
    await this.running;
  }

  /** Resolves when nothing is being sent (for tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    if (!this.releasedOwnClaims) {
      // A row this instance id still holds was left by a stopped or killed run of it.
      await this.store.outbox.release(this.instanceId);
      this.releasedOwnClaims = true;
    }
    while (!this.stopped && Date.now() >= this.pausedUntil) {
      const [message] = await this.store.outbox.claim({
        instanceId: this.instanceId,
        leaseMs: CLAIM_LEASE_MS,
        limit: 1,
        now: Date.now(),
      });
      if (!message) return;
      await this.deliver(message);
    }
  }

  private async deliver(message: OutboxMessage): Promise<void> {
    try {
      await this.notifier.send(message.chatId, message.text, BACKGROUND_SEND, this.shutdown.signal);
    } catch (error) {
      // A stop cut the send short: the row stays due and goes out after the next start.
      if (this.stopped) return;
      await this.recordFailure(message, error);
      return;
    }
    await this.store.outbox.markSent(message.id, this.instanceId, Date.now());
    if (this.unreachable) {
      this.unreachable = false;
      log.info("Telegram reachable again; queued messages are going out");
    }
  }

  private async recordFailure(message: OutboxMessage, error: unknown): Promise<void> {
    const now = Date.now();
    if (error instanceof TelegramRejectedError) {
      log.warn(
        { messageId: message.id, chatId: message.chatId, reason: error.message },
        "Telegram refused a message; it will not be retried",
      );
      await this.store.outbox.markFailed(message.id, this.instanceId, error.message, now);
      return;
    }
    if (!(error instanceof TelegramUnavailableError)) throw error;
    const nextAttemptAt = now + Math.max(retryDelay(message.attempts), error.retryAfterMs ?? 0);
    await this.store.outbox.markRetry(message.id, this.instanceId, error.message, nextAttemptAt);
    // Every other row would meet the same outage: hold the queue (and its order) until then.
    this.pausedUntil = nextAttemptAt;
    this.unreachable = true;
    warnTelegramUnreachable(error.message, {
      messageId: message.id,
      retryInSeconds: Math.round((nextAttemptAt - now) / 1000),
    });
  }
}
