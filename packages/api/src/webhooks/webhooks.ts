import { randomUUID } from "node:crypto";
import { callOutbound, isOutboundTimeout } from "../outbound/policy.ts";
import { postWebhook } from "./webhook-post.ts";
import { type WebhookEvent, webhookHeaders } from "./webhook-signature.ts";
import {
  checkedAddresses,
  parseWebhookUrl,
  type Resolver,
  systemResolver,
  WebhookRefusedError,
} from "./webhook-target.ts";

/** Each POST's limit; a receiver slower than this counts as a failed attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export type DeliveryResult =
  | { ok: true; status: number }
  /** `refused`: the URL guard said no; retrying cannot help. */
  | { ok: false; status?: number; error: string; refused?: boolean };

export interface WebhookTarget {
  url: string;
  secret: string;
}

/**
 * The server's webhook policy and transport: which URLs may be saved (`check`, on save) and
 * the signed POST itself (`deliver`, which checks the address again as it connects).
 */
export class Webhooks {
  /** The resolver used on save and at send time; tests swap it to simulate DNS changes. */
  resolve: Resolver = systemResolver;
  /** Each POST's limit; tests shorten it to see a hanging receiver time out. */
  timeoutMs = WEBHOOK_TIMEOUT_MS;
  private readonly testsInFlight = new Set<number>();

  constructor(readonly allowPrivate: boolean) {}

  /** What is wrong with the URL's syntax or scheme (nothing is resolved); undefined if nothing. */
  syntaxProblem(text: string): string | undefined {
    try {
      parseWebhookUrl(text, this.allowPrivate);
      return undefined;
    } catch (error) {
      if (error instanceof WebhookRefusedError) return error.message;
      throw error;
    }
  }

  /** The URL as it will be stored, or a WebhookRefusedError saying what is wrong with it. */
  async check(text: string): Promise<string> {
    const url = parseWebhookUrl(text, this.allowPrivate);
    await checkedAddresses(url, this.allowPrivate, this.resolve);
    return url.href;
  }

  /** One attempt within WEBHOOK_TIMEOUT_MS; never throws for the receiver's failures. */
  async deliver(
    target: WebhookTarget,
    body: string,
    idempotencyKey: string,
    event: WebhookEvent,
    signal?: AbortSignal,
  ): Promise<DeliveryResult> {
    const headers = webhookHeaders(target.secret, body, idempotencyKey, event);
    const options = { allowPrivate: this.allowPrivate, resolve: this.resolve };
    try {
      const status = await callOutbound(
        { attempts: 1, attemptTimeoutMs: this.timeoutMs },
        (attemptSignal) =>
          postWebhook(target.url, body, headers, { ...options, signal: attemptSignal }),
        signal,
      );
      if (status >= 200 && status < 300) return { ok: true, status };
      return { ok: false, status, error: `The webhook answered HTTP ${status}.` };
    } catch (error) {
      return { ok: false, ...failure(error, this.timeoutMs) };
    }
  }

  /**
   * The Send test button's POST for `userId`: undefined while that user's previous test is
   * still on its way (one at a time, so the button cannot make the server a flood source).
   */
  async sendTestFor(
    userId: number,
    target: WebhookTarget,
    signal?: AbortSignal,
  ): Promise<DeliveryResult | undefined> {
    if (this.testsInFlight.has(userId)) return undefined;
    this.testsInFlight.add(userId);
    try {
      return await this.sendTest(target, signal);
    } finally {
      this.testsInFlight.delete(userId);
    }
  }

  /** A test body that says it is a test, with an idempotency key of its own. */
  private sendTest(target: WebhookTarget, signal?: AbortSignal): Promise<DeliveryResult> {
    const now = Date.now();
    const body = JSON.stringify({
      event: "test",
      text: "Test from Spreadwatch: your webhook works.",
      sentAt: now,
    });
    return this.deliver(target, body, `spreadwatch-test-${randomUUID()}`, "test", signal);
  }
}

function failure(error: unknown, timeoutMs: number): { error: string; refused?: boolean } {
  if (error instanceof WebhookRefusedError) return { error: error.message, refused: true };
  if (isOutboundTimeout(error)) {
    return { error: `The webhook did not answer within ${timeoutMs / 1000} s.` };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { error: `Could not reach the webhook: ${message}` };
}
