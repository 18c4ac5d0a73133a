import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { ZodError } from "zod";
import { describeZodError, ErrorWithFields } from "../errors.ts";
import { retryAfterHeader } from "../http/errors.ts";

export interface ErrorResponse {
  status: number;
  body: { error: string } & Record<string, unknown>;
  headers: Record<string, string>;
  /** The error behind a 5xx, for the request log; never sent. */
  failure?: unknown;
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
