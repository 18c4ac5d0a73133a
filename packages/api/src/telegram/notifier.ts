import { autoRetry } from "@grammyjs/auto-retry";
import { Api, GrammyError, HttpError } from "grammy";

export interface TelegramSettings {
  botToken?: string;
  botUsername?: string;
  apiRoot?: string;
}

/** Telegram refused the message for good (wrong chat id, bot blocked): retrying cannot help. */
export class TelegramRejectedError extends Error {}
/** Telegram could not be reached or failed on its side: worth retrying later. */
export class TelegramUnavailableError extends Error {}

/**
 * Sends Telegram messages through grammY's Api. 429s (with retry_after), 5xx and network errors
 * are retried with backoff by the auto-retry plugin before an error reaches the caller.
 */
export class TelegramNotifier {
  private readonly api: Api;

  constructor(
    settings: { botToken: string; botUsername?: string; apiRoot?: string },
    readonly botUsername = settings.botUsername,
  ) {
    this.api = new Api(
      settings.botToken,
      settings.apiRoot ? { apiRoot: settings.apiRoot } : undefined,
    );
    this.api.config.use(autoRetry({ maxRetryAttempts: 4, maxDelaySeconds: 30 }));
  }

  async send(chatId: string, text: string): Promise<void> {
    try {
      await this.api.sendMessage(chatId, text);
    } catch (error) {
      if (
        error instanceof GrammyError &&
        error.error_code >= 400 &&
        error.error_code < 500 &&
        error.error_code !== 429
      ) {
        throw new TelegramRejectedError(error.description);
      }
      const reason =
        error instanceof GrammyError
          ? error.description
          : error instanceof HttpError
            ? error.message
            : String(error);
      throw new TelegramUnavailableError(reason);
    }
  }
}

export function createNotifier(settings: TelegramSettings): TelegramNotifier | undefined {
  if (!settings.botToken) return undefined;
  return new TelegramNotifier({
    botToken: settings.botToken,
    ...(settings.botUsername && { botUsername: settings.botUsername }),
    ...(settings.apiRoot && { apiRoot: settings.apiRoot }),
  });
}
