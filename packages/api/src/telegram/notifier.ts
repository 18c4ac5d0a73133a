import { autoRetry } from "@grammyjs/auto-retry";
import { Api, GrammyError, HttpError } from "grammy";
import { warnEvery } from "../log.ts";
import { callOutbound, isOutboundTimeout, type OutboundOptions } from "../outbound/policy.ts";

export interface TelegramSettings {
  botToken?: string;
  botUsername?: string;
  apiRoot?: string;
}

/** Telegram refused the message for good (wrong chat id, bot blocked): retrying cannot help. */
export class TelegramRejectedError extends Error {}

/** Telegram could not be reached or failed on its side: worth retrying later. */
export class TelegramUnavailableError extends Error {
  constructor(
    reason: string,
    /** Telegram's own `retry_after` when it rate-limited us for longer than we wait in place. */
    readonly retryAfterMs?: number,
  ) {
    super(reason);
  }
}

/**
 * Another attempt now could succeed: a timeout, a network failure or a 5xx, not a refusal or a
 * long 429. Timeouts are named here because cockatiel 3.2's isTaskCancelledError never matches.
 */
function isTransient(error: Error): boolean {
  if (isOutboundTimeout(error)) return true;
  return error instanceof TelegramUnavailableError && error.retryAfterMs === undefined;
}

/**
 * A user waits on connect and test: every attempt together ends in time to answer within 10 s,
 * with room to spare for a busy server. Telegram answers in well under a second when it is up.
 */
export const INTERACTIVE_SEND: OutboundOptions = {
  attempts: 3,
  attemptTimeoutMs: 3_000,
  deadlineMs: 7_000,
  initialDelayMs: 250,
  maxDelayMs: 1_000,
  retryIf: isTransient,
};

/** The outbox sender: when these attempts run out the row is rescheduled in the database. */
export const BACKGROUND_SEND: OutboundOptions = {
  attempts: 3,
  attemptTimeoutMs: 20_000,
  initialDelayMs: 1_000,
  maxDelayMs: 10_000,
  retryIf: isTransient,
};

/** grammY's Node build types its signal after the abort-controller polyfill; node-fetch takes Node's own. */
type GrammySignal = Parameters<Api["sendMessage"]>[3];

/** Rate limits Telegram asks us to sit out in place; longer ones go back to the caller. */
const MAX_RETRY_AFTER_SECONDS = 5;
const UNREACHABLE_WARNING_MS = 60_000;

/** The failure's reason in a few words, never the request URL (it carries the bot token). */
function networkReason(error: HttpError): string {
  const cause = error.error as { code?: unknown; type?: unknown } | undefined;
  const code = cause?.code ?? cause?.type;
  return typeof code === "string" ? `network error (${code})` : "network error";
}

/** Sorts grammY's errors into "refused for good" and "try again later". */
function classify(error: unknown): unknown {
  if (error instanceof GrammyError) {
    if (error.error_code === 429) {
      const seconds = error.parameters.retry_after ?? 1;
      return new TelegramUnavailableError(error.description, seconds * 1000);
    }
    if (error.error_code >= 400 && error.error_code < 500)
      return new TelegramRejectedError(error.description);
    return new TelegramUnavailableError(error.description);
  }
  if (error instanceof HttpError) return new TelegramUnavailableError(networkReason(error));
  return error;
}

/**
 * One warning line while Telegram stays unreachable, however many messages and users meet it.
 * Expected, so no stack trace.
 */
export function warnTelegramUnreachable(reason: string, fields: Record<string, unknown> = {}) {
  warnEvery(
    "telegram-unreachable",
    UNREACHABLE_WARNING_MS,
    { ...fields, reason },
    "Telegram unreachable",
  );
}

/**
 * Sends Telegram messages through grammY's Api. Timeouts and retries of network errors and 5xx
 * are the shared outbound policy's; the auto-retry plugin only sits out short 429 `retry_after`s,
 * which only Telegram's answer can tell.
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
    this.api.config.use(
      autoRetry({
        maxRetryAttempts: 3,
        maxDelaySeconds: MAX_RETRY_AFTER_SECONDS,
        rethrowHttpErrors: true,
        rethrowInternalServerErrors: true,
      }),
    );
  }

  /**
   * Resolves once Telegram accepted the message. Rejects with TelegramRejectedError (do not
   * retry) or TelegramUnavailableError (timed out, unreachable, rate-limited, 5xx).
   */
  async send(
    chatId: string,
    text: string,
    policy: OutboundOptions = BACKGROUND_SEND,
    signal?: AbortSignal,
  ): Promise<void> {
    try {
      await callOutbound(
        policy,
        async (attemptSignal) => {
          try {
            await this.api.sendMessage(chatId, text, undefined, attemptSignal as GrammySignal);
          } catch (error) {
            throw classify(error);
          }
        },
        signal,
      );
    } catch (error) {
      if (isOutboundTimeout(error))
        throw new TelegramUnavailableError("no answer from Telegram in time");
      throw error;
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
