import type { OutboxMessage } from "@spreadwatch/db";
import { log } from "../log.ts";
import {
  type ChannelDelivery,
  type DeliveryOutcome,
  retryDelay,
} from "../outbound/outbox-sender.ts";
import {
  BACKGROUND_SEND,
  type TelegramNotifier,
  TelegramRejectedError,
  TelegramUnavailableError,
  warnTelegramUnreachable,
} from "./notifier.ts";

/**
 * Telegram's outbox rows (channel "telegram"), sent by the shared OutboxSender loop: a refusal
 * (bot blocked, chat gone) fails the row for good; Telegram being down holds the whole queue,
 * in order, until the failed row falls due again.
 */
export class TelegramDelivery implements ChannelDelivery {
  readonly channel = "telegram";
  private unreachable = false;

  constructor(private readonly notifier: TelegramNotifier) {}

  async deliver(message: OutboxMessage, signal: AbortSignal): Promise<DeliveryOutcome> {
    try {
      await this.notifier.send(message.chatId, message.text, BACKGROUND_SEND, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      return this.failure(message, error);
    }
    if (this.unreachable) {
      this.unreachable = false;
      log.info("Telegram reachable again; queued messages are going out");
    }
    return { kind: "sent" };
  }

  private failure(message: OutboxMessage, error: unknown): DeliveryOutcome {
    if (error instanceof TelegramRejectedError) {
      log.warn(
        { messageId: message.id, chatId: message.chatId, reason: error.message },
        "Telegram refused a message; it will not be retried",
      );
      return { kind: "failed", error: error.message };
    }
    if (!(error instanceof TelegramUnavailableError)) throw error;
    const now = Date.now();
    const at = now + Math.max(retryDelay(message.attempts), error.retryAfterMs ?? 0);
    this.unreachable = true;
    warnTelegramUnreachable(error.message, {
      messageId: message.id,
      retryInSeconds: Math.round((at - now) / 1000),
    });
    return { kind: "retry", error: error.message, at, holdQueue: true };
  }
}
