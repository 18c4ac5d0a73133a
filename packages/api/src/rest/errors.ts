import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { ZodError } from "zod";

export interface ErrorResponse {
  status: number;
  body: { error: string } & Record<string, unknown>;
  headers: Record<string, string>;
  /** The error behind a 5xx, for the request log; never sent. */
  failure?: unknown;
}

/**
 * Extra fields a procedure wants on the error body (e.g. `session_expired: true`). A numeric
 * `retryAfterSeconds` also becomes the Retry-After header, over REST and tRPC alike.
 */
export class ErrorWithFields extends Error {
  constructor(
    message: string,
    readonly fields: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * One readable sentence from a zod failure. Our schemas' messages already name the field
 * ("Password must be at least 8 characters"); zod's defaults do not, so those get the path.
 */
export function describeZodError(error: ZodError): string {
  // A misspelt field ("lot" for "lots") is named first: it is usually why another is missing.
  const unknown = error.issues.find((i) => i.code === "unrecognized_keys");
  if (unknown) return unknownFieldsSentence(unknown.path, unknown.keys);
  const issue = error.issues[0];
  if (!issue) return "Invalid request";
  const field = issue.path.map(String).join(".");
  const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");
  const last = squash(String(issue.path.at(-1) ?? ""));
  if (!field || squash(issue.message).includes(last)) return issue.message;
  return `${field}: ${issue.message}`;
}

/**
 * `Unknown field "lot"`, `Unknown fields "qty", "lots "`, `Unknown field "legs.0.side"`: each
 * with its full path, quoted so a trailing space or a case slip shows.
 */
function unknownFieldsSentence(path: readonly PropertyKey[], keys: readonly string[]): string {
  const names = keys.map((key) => JSON.stringify([...path.map(String), key].join(".")));
  return `Unknown field${names.length === 1 ? "" : "s"} ${names.join(", ")}`;
}

/** The Retry-After header a procedure asked for through ErrorWithFields, if any. */
export function retryAfterHeader(error: unknown): Record<string, string> {
  const cause = error instanceof TRPCError ? error.cause : error;
  if (!(cause instanceof ErrorWithFields)) return {};
  const seconds = cause.fields.retryAfterSeconds;
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) return {};
  return { "retry-after": String(Math.ceil(seconds)) };
}

/** Maps whatever a procedure threw to an HTTP status and a `{ error }` body; never a stack trace. */
export function toErrorResponse(error: unknown): ErrorResponse {
  const internal = { status: 500, body: { error: "Internal server error" }, headers: {} };
  if (!(error instanceof TRPCError)) return { ...internal, failure: error };
  const status = getHTTPStatusCodeFromError(error);
  if (error.cause instanceof ZodError)
    return { status, body: { error: describeZodError(error.cause) }, headers: {} };
  // Only the unexpected is hidden; a deliberate 502 ("Could not reach Telegram") is a message for the user.
  if (error.code === "INTERNAL_SERVER_ERROR") return { ...internal, failure: error.cause ?? error };
  const fields = error.cause instanceof ErrorWithFields ? error.cause.fields : {};
  return { status, body: { ...fields, error: error.message }, headers: retryAfterHeader(error) };
}
