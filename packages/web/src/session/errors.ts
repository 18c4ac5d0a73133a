import { TRPCClientError } from "@trpc/client";

/** Why the server ended a session (docs/spec.md §4 "Session expiry"); see the api's `unauthorized`. */
export type ExpiryReason = "replaced" | "password_changed" | "user_deleted" | "expired";

const EXPIRY_REASONS: readonly string[] = [
  "replaced",
  "password_changed",
  "user_deleted",
  "expired",
] satisfies ExpiryReason[];

function errorData(error: unknown): Record<string, unknown> | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data: unknown = error.data;
  return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : undefined;
}

/**
 * The reason when `error` is the server saying "this session was ended" (401 with
 * `session_expired`); undefined for every other error, including a plain 401 for never having
 * signed in.
 */
export function sessionExpiryOf(error: unknown): ExpiryReason | undefined {
  const data = errorData(error);
  if (data?.httpStatus !== 401 || data.session_expired !== true) return undefined;
  return EXPIRY_REASONS.includes(String(data.reason)) ? (data.reason as ExpiryReason) : "expired";
}

/** The HTTP status of an answer from the API; undefined when no answer came back. */
export function httpStatusOf(error: unknown): number | undefined {
  const status = errorData(error)?.httpStatus;
  return typeof status === "number" ? status : undefined;
}

/** A number the server put on its error answer (the 409 `{ alerts }` of a delete); else undefined. */
export function errorNumberOf(error: unknown, field: string): number | undefined {
  const value = errorData(error)?.[field];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The server's own sentence for a failed call; undefined when the API gave none. */
export function serverMessage(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError) || !error.shape) return undefined;
  return error.message || undefined;
}

/** The request never got an answer: offline, refused, aborted (fetch rejects with a TypeError). */
export function isNetworkError(error: unknown): boolean {
  const cause = error instanceof TRPCClientError ? error.cause : error;
  return (
    cause instanceof TypeError || (cause instanceof DOMException && cause.name === "AbortError")
  );
}

/**
 * What a screen shows for a failed call (docs/spec.md §8): the server's sentence when there is one, else
 * the screen's network text when the request never got through, else its fallback.
 */
export function failureText(error: unknown, texts: { fallback: string; network?: string }): string {
  const fromServer = serverMessage(error);
  if (fromServer !== undefined) return fromServer;
  return (isNetworkError(error) && texts.network) || texts.fallback;
}
