import type { OutboxChannel, OutboxMessage, Store } from "@spreadwatch/db";
import { log } from "../log.ts";

/** Re-check for retries that fell due even when nothing new was queued. */
const POLL_MS = 5_000;
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** A claimed row comes back to any sender after this, should this one die holding it. */
const CLAIM_LEASE_MS = 60_000;

/** After n failed attempts: 10 s, 20 s, 40 s … capped at an hour. */
export function retryDelay(attempts: number): number {
  return Math.min(10_000 * 2 ** attempts, MAX_BACKOFF_MS);
}

export type DeliveryOutcome =
  | { kind: "sent" }
  /** `holdQueue`: every other row would meet the same outage, so none is tried before `at`. */
  | { kind: "retry"; error: string; at: number; holdQueue?: boolean }
  | { kind: "failed"; error: string };

/** How one channel delivers one of its outbox rows. */
export interface ChannelDelivery {
  readonly channel: OutboxChannel;
  /**
   * Tries once. Throwing is for the unexpected (the pass ends and is logged; the row comes back
   * when its lease runs out) and for a send that `signal`, the shutdown, cut short.
   */
  deliver(message: OutboxMessage, signal: AbortSignal): Promise<DeliveryOutcome>;
}

/**
 * Delivers one channel's queued rows oldest first, strictly one at a time: a row is marked sent
 * (its own transaction) as soon as the receiver accepted it, before the next row is even read.
 * So a crash can leave at most the one message in flight unmarked, and only that one is sent
 * again after a restart (at-least-once, at most one duplicate per crash). Each channel has its
 * own sender, so a Telegram outage never holds webhooks back, nor a slow webhook Telegram.
 */
export class OutboxSender {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** Cuts the message in flight short when a stop runs out of patience. */
  private readonly shutdown = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  /** While the channel is down nothing is tried before the failed row falls due again. */
  private pausedUntil = 0;
  private releasedOwnClaims = false;

  constructor(
    private readonly store: Store,
    private readonly delivery: ChannelDelivery,
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
      .catch((error: unknown) =>
        log.error({ err: error, channel: this.delivery.channel }, "outbox pass failed"),
      )
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
    const { channel } = this.delivery;
    if (!this.releasedOwnClaims) {
      // A row this instance id still holds was left by a stopped or killed run of it.
      await this.store.outbox.release(this.instanceId, channel);
      this.releasedOwnClaims = true;
    }
    while (!this.stopped && Date.now() >= this.pausedUntil) {
      const [message] = await this.store.outbox.claim({
        instanceId: this.instanceId,
        channel,
        leaseMs: CLAIM_LEASE_MS,
        limit: 1,
        now: Date.now(),
      });
      if (!message) return;
      await this.deliver(message);
    }
  }

  private async deliver(message: OutboxMessage): Promise<void> {
    let outcome: DeliveryOutcome;
    try {
      outcome = await this.delivery.deliver(message, this.shutdown.signal);
    } catch (error) {
      // A stop cut the send short: the row stays due and goes out after the next start.
      if (this.stopped) return;
      throw error;
    }
    if (outcome.kind === "sent") {
      await this.store.outbox.markSent(message.id, this.instanceId, Date.now());
      return;
    }
    // Possibly cut short by the stop rather than refused: the next start sends it again.
    if (this.stopped) return;
    if (outcome.kind === "failed") {
      await this.store.outbox.markFailed(message.id, this.instanceId, outcome.error, Date.now());
      return;
    }
    await this.store.outbox.markRetry(message.id, this.instanceId, outcome.error, outcome.at);
    if (outcome.holdQueue) this.pausedUntil = outcome.at;
  }
}

/** Every channel's sender, started, woken and stopped together (the leader's). */
export class OutboxSenders {
  constructor(private readonly senders: readonly OutboxSender[]) {}

  start(): void {
    for (const sender of this.senders) sender.start();
  }

  /** A firing queued rows: each channel looks for its own. */
  wake(): void {
    for (const sender of this.senders) sender.wake();
  }

  async stop(graceMs?: number): Promise<void> {
    await Promise.all(this.senders.map((sender) => sender.stop(graceMs)));
  }

  async idle(): Promise<void> {
    await Promise.all(this.senders.map((sender) => sender.idle()));
  }
}
