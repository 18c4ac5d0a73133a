import { createHmac } from "node:crypto";

/** X-Spreadwatch-Signature's value: HMAC-SHA256 of the exact body bytes, keyed by the secret. */
export function webhookSignature(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;
}

export type WebhookEvent = "alert.fired" | "position.alert" | "test";

/** The headers of every webhook POST (the contract's list). */
export function webhookHeaders(
  secret: string,
  body: string,
  idempotencyKey: string,
  event: WebhookEvent,
): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "Spreadwatch-Webhook/1",
    "x-spreadwatch-signature": webhookSignature(secret, body),
    "idempotency-key": idempotencyKey,
    "x-spreadwatch-event": event,
    "content-length": String(Buffer.byteLength(body, "utf8")),
  };
}
