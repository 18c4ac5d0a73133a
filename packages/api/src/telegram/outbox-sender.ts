import {
  type Database,
  dueOutboxMessages,
  markOutboxFailed,
  markOutboxRetry,
  markOutboxSent,
} from "@spreadwatch/db";
import { type TelegramNotifier, TelegramRejectedError } from "./notifier.ts";

const BATCH = 20;
/** Re-check for retries that fell due even when nothing new was queued. */
const POLL_MS = 5_000;
const MAX_BACKOFF_MS = 60 * 60 * 1000;

/** After n failed attempts: 10 s, 20 s, 40 s … capped at an hour. */
export function retryDelay(attempts: number): number {
  return Math.min(10_000 * 2 ** attempts, MAX_BACKOFF_MS);
}

/**
 * Delivers queued Telegram messages one at a time, marking each sent only after Telegram
 * accepted it. Runs beside the hub: firings only write a row and call `wake`.
 */
export class OutboxSender {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly notifier: TelegramNotifier,
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
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /**
   * Stops after the message in flight, waiting at most `graceMs`: an unsent row stays queued and
   * goes out after the next start.
   */
  async stop(graceMs = 2_000): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.race([
      this.running,
      new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
    ]);
  }

  /** Resolves when nothing is being sent (for tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    for (;;) {
      const due = dueOutboxMessages(this.db, Date.now(), BATCH);
      if (due.length === 0 || this.stopped) return;
      for (const message of due) {
        if (this.stopped) return;
        try {
          await this.notifier.send(message.chatId, message.text);
          markOutboxSent(this.db, message.id, Date.now());
        } catch (error) {
          const reason = (error as Error).message;
          if (error instanceof TelegramRejectedError) {
            console.warn(`telegram: message ${message.id} refused by Telegram: ${reason}`);
            markOutboxFailed(this.db, message.id, reason, Date.now());
          } else {
            console.warn(`telegram: message ${message.id} not delivered, will retry: ${reason}`);
            markOutboxRetry(this.db, message.id, reason, Date.now() + retryDelay(message.attempts));
          }
        }
      }
    }
  }
}
