import type { OutboxChannel } from "@spreadwatch/db";
import type { ChannelDelivery, DeliveryOutcome } from "../outbound/outbox-sender.ts";

/** Every outbox channel, so each one's series exists (at 0) before its first event. */
export const OUTBOX_CHANNELS = ["telegram", "webhook"] as const satisfies readonly OutboxChannel[];

export interface ChannelCounts {
  /** Each try to hand a message to the channel's receiver. */
  attempts: number;
  /** Tries that did not deliver (to be retried, given up, or an unexpected error). */
  failures: number;
  /** Alert firings whose message over this channel reached its end: delivered, or given up. */
  sent: number;
  failed: number;
}

/**
 * What the outbox senders did since this server started. It outlives the leader's senders (new
 * each term), so its counts only ever grow, as Prometheus counters must.
 */
export class DeliveryCounts {
  readonly byChannel = new Map<OutboxChannel, ChannelCounts>(
    OUTBOX_CHANNELS.map((channel) => [channel, { attempts: 0, failures: 0, sent: 0, failed: 0 }]),
  );

  /** The channel's delivery, counting each try and its outcome here. */
  counting(delivery: ChannelDelivery): ChannelDelivery {
    const counts = this.byChannel.get(delivery.channel) as ChannelCounts;
    const deliver = async (...args: Parameters<ChannelDelivery["deliver"]>) => {
      const [, signal] = args;
      counts.attempts++;
      let outcome: DeliveryOutcome;
      try {
        outcome = await delivery.deliver(...args);
      } catch (error) {
        // Cut short by the shutdown: it goes out after the next start, and is no failure.
        if (!signal.aborted) counts.failures++;
        throw error;
      }
      if (outcome.kind !== "sent") counts.failures++;
      if (outcome.kind === "sent") counts.sent++;
      else if (outcome.kind === "failed") counts.failed++;
      return outcome;
    };
    return {
      channel: delivery.channel,
      ...(delivery.concurrency !== undefined && { concurrency: delivery.concurrency }),
      deliver,
    };
  }
}
