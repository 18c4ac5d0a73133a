import type { OutboxChannel, OutboxMessage, Store } from "@spreadwatch/db";
import { log } from "../log.ts";

/** Re-check for retries that fell due even when nothing new was queued. */
const POLL_MS = 5_000;
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/**
 * A claimed row comes back to any sender after this, should this one die holding it (a new
 * leader then sends it within the lease, not a minute later). A send may take longer (Telegram's
 * three 20 s attempts), so the rows in flight are renewed every RENEW_EVERY_MS while they last.
 */
const CLAIM_LEASE_MS = 15_000;
const RENEW_EVERY_MS = 5_000;

export interface LeaseTimes {
  leaseMs: number;
  /** Well inside the lease, so a renewal late by a busy event loop still lands in time. */
  renewEveryMs: number;
}

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
   * Set: up to this many rows in flight at once, each of a different user, whose own rows go
   * strictly in order, one at a time (a row waits behind its user's earlier one, in flight or
   * in its backoff). Absent: the channel's rows one at a time, oldest first, a row in backoff
   * holding nobody's next (Telegram's way).
   */
  readonly concurrency?: number;
  /**
   * Tries once. Throwing is for the unexpected (logged; the row comes back when its lease runs
   * out) and for a send that `signal`, the shutdown, cut short.
   */
  deliver(message: OutboxMessage, signal: AbortSignal): Promise<DeliveryOutcome>;
}

/**
 * Delivers one channel's queued rows oldest first. A row is marked sent (its own transaction)
 * as soon as the receiver accepted it, so a crash can leave only the rows in flight unmarked,
 * and only those are sent again after a restart (at-least-once, at most `concurrency`
 * duplicates per crash). Each channel has its own sender, so a Telegram outage never holds
 * webhooks back, nor a slow webhook Telegram.
 *
 * With a channel's `concurrency`, up to that many rows are in flight at once, each of a
 * different user: the claim hands out only each user's oldest unsent row, so one user's slow
 * or dead receiver holds one slot and their own later rows, never anyone else's.
 */
export class OutboxSender {
  /** The claim under way: one at a time, so two never count the same free slots. */
  private claiming: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  /** The deliveries under way, by row id. */
  private readonly inFlight = new Map<number, Promise<void>>();
  /** Cuts the messages in flight short when a stop runs out of patience. */
  private readonly shutdown = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  /** While the channel is down nothing is tried before the failed row falls due again. */
  private pausedUntil = 0;
  private releasedOwnClaims = false;
  private readonly concurrency: number;
  private readonly oldestPerUser: boolean;

  constructor(
    private readonly store: Store,
    private readonly delivery: ChannelDelivery,
    /** Who claims the rows: no other instance sends them while the lease runs. */
    private readonly instanceId: string,
    private readonly lease: LeaseTimes = { leaseMs: CLAIM_LEASE_MS, renewEveryMs: RENEW_EVERY_MS },
  ) {
    this.concurrency = Math.max(1, delivery.concurrency ?? 1);
    this.oldestPerUser = delivery.concurrency !== undefined;
  }

  start(): void {
    this.timer = setInterval(() => this.wake(), POLL_MS);
    this.timer.unref();
    this.renewTimer = setInterval(() => void this.renewLeases(), this.lease.renewEveryMs);
    this.renewTimer.unref();
    this.wake();
  }

  /** Keeps the rows in flight this sender's while their sends last, however long. Never rejects. */
  private async renewLeases(): Promise<void> {
    const ids = [...this.inFlight.keys()];
    if (ids.length === 0) return;
    try {
      await this.store.outbox.renew(ids, this.instanceId, Date.now() + this.lease.leaseMs);
    } catch (error) {
      // The database is unreachable: no other sender can claim the rows either.
      log.warn({ err: error, channel: this.delivery.channel }, "outbox lease renewal failed");
    }
  }

  /**
   * Claims rows for the free slots, or asks the claim under way to look again when it ends.
   * Called when rows are queued, on the poll, and whenever a delivery ends (a slot is free and
   * that user's next row may now go).
   */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.fillSlots()
      .catch((error: unknown) =>
        log.error({ err: error, channel: this.delivery.channel }, "outbox claim failed"),
      )
      .finally(() => {
        this.claiming = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /**
   * Lets the messages in flight finish for up to `graceMs`, then aborts them; resolves when the
   * sender no longer touches the database. An unsent row stays queued for the next start.
   */
  async stop(graceMs = 2_000): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.renewTimer);
    let timer: NodeJS.Timeout | undefined;
    const patience = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([this.idle(), patience]);
    clearTimeout(timer);
    this.shutdown.abort();
    await this.idle();
  }

  /** Resolves when nothing is being claimed or sent (for tests and shutdown). */
  async idle(): Promise<void> {
    while (this.claiming || this.inFlight.size > 0) {
      await Promise.all([this.claiming, ...this.inFlight.values()]);
    }
  }

  private async fillSlots(): Promise<void> {
    const { channel } = this.delivery;
    if (!this.releasedOwnClaims) {
      // A row this instance id still holds was left by a stopped or killed run of it.
      await this.store.outbox.release(this.instanceId, channel);
      this.releasedOwnClaims = true;
    }
    const free = this.concurrency - this.inFlight.size;
    if (this.stopped || free <= 0 || Date.now() < this.pausedUntil) return;
    const claimed = await this.store.outbox.claim({
      instanceId: this.instanceId,
      channel,
      // Per user in order: a user's later rows wait behind their earlier one, in flight or in
      // its backoff, since a receiver must see its firings in the order they happened.
      oldestPerUser: this.oldestPerUser,
      leaseMs: this.lease.leaseMs,
      limit: free,
      now: Date.now(),
    });
    for (const message of claimed) this.send(message);
  }

  /** Delivers in the background; the slot it frees is filled at once. */
  private send(message: OutboxMessage): void {
    const sending = this.deliver(message)
      .catch((error: unknown) =>
        log.error(
          { err: error, channel: this.delivery.channel, messageId: message.id },
          "outbox delivery failed",
        ),
      )
      .finally(() => {
        this.inFlight.delete(message.id);
        this.wake();
      });
    this.inFlight.set(message.id, sending);
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
