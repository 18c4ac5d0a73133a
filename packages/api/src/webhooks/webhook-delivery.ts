import type { OutboxMessage, Store } from "@spreadwatch/db";
import { log } from "../log.ts";
import {
  type ChannelDelivery,
  type DeliveryOutcome,
  retryDelay,
} from "../outbound/outbox-sender.ts";
import type { WebhookEvent } from "./webhook-signature.ts";
import type { Webhooks } from "./webhooks.ts";

/** A webhook firing is retried for this long after it was queued, then given up. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * How many users' webhooks are posted at once. Each user's own rows still go one at a time in
 * order, so one slow or dead receiver (up to WEBHOOK_TIMEOUT_MS per attempt) holds one slot
 * and its own user's later firings, never another user's.
 */
export const WEBHOOK_CONCURRENCY = 8;

/** The same on every retry of a firing, so the receiver can drop a second delivery. */
export function idempotencyKeyOf(message: OutboxMessage): string {
  return message.firingId === null
    ? `spreadwatch-outbox-${message.id}`
    : `spreadwatch-firing-${message.firingId}`;
}

/**
 * Webhook outbox rows (channel "webhook"): `text` is the JSON body, signed as stored on every
 * attempt; URL and secret are the user's current ones. Any non-2xx answer or network error is
 * retried with the outbox's backoff until 24 h after the row was queued. Different users' rows
 * go out concurrently; a user whose receiver fails waits out their backoff alone, their later
 * rows waiting behind the failed one (a receiver sees its firings in order), while everyone
 * else's go on.
 */
export class WebhookDelivery implements ChannelDelivery {
  readonly channel = "webhook";
  readonly concurrency = WEBHOOK_CONCURRENCY;

  constructor(
    private readonly store: Store,
    private readonly webhooks: Webhooks,
  ) {}

  async deliver(message: OutboxMessage, signal: AbortSignal): Promise<DeliveryOutcome> {
    const deadline = message.createdAt + WEBHOOK_RETRY_WINDOW_MS;
    if (Date.now() >= deadline) {
      return this.failed(message, "Not delivered within 24 h of the firing; given up.");
    }
    const target = await this.store.webhooks.get(message.userId);
    if (!target) {
      return this.failed(message, "The webhook was removed before this alert could be delivered.");
    }
    const result = await this.webhooks.deliver(
      target,
      message.text,
      idempotencyKeyOf(message),
      eventOf(message.text),
      signal,
    );
    if (result.ok) return { kind: "sent" };
    if (result.refused) return this.failed(message, result.error);
    const at = Date.now() + retryDelay(message.attempts);
    if (at >= deadline) {
      return this.failed(message, `${result.error} Given up 24 h after the firing.`);
    }
    log.warn(
      { messageId: message.id, userId: message.userId, error: result.error, retryAt: at },
      "webhook delivery failed; it will be retried",
    );
    return { kind: "retry", error: result.error, at };
  }

  private failed(message: OutboxMessage, error: string): DeliveryOutcome {
    log.warn(
      { messageId: message.id, userId: message.userId, error },
      "webhook delivery failed for good",
    );
    return { kind: "failed", error };
  }
}

/** A position's target or stop (firing-payload.ts's positionWebhookBody starts so), else an alert. */
function eventOf(body: string): WebhookEvent {
  return body.startsWith('{"event":"position.alert"') ? "position.alert" : "alert.fired";
}
