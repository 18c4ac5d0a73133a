import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { ZodError } from "zod";

export interface ErrorResponse {
  status: number;
  body: { error: string } & Record<string, unknown>;
}

/** Extra fields a procedure wants on the error body (e.g. `session_expired: true`). */
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
  const issue = error.issues[0];
  if (!issue) return "Invalid request";
  const field = issue.path.map(String).join(".");
  const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");
  const last = squash(String(issue.path.at(-1) ?? ""));
  if (!field || squash(issue.message).includes(last)) return issue.message;
  return `${field}: ${issue.message}`;
}

/** Maps whatever a procedure threw to an HTTP status and a `{ error }` body; never a stack trace. */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof TRPCError) {
    const status = getHTTPStatusCodeFromError(error);
    if (error.cause instanceof ZodError)
      return { status, body: { error: describeZodError(error.cause) } };
    if (status >= 500) {
      console.error("request failed:", error.cause ?? error);
      return { status, body: { error: "Internal server error" } };
    }
    const fields = error.cause instanceof ErrorWithFields ? error.cause.fields : {};
    return { status, body: { ...fields, error: error.message } };
  }
  console.error("request failed:", error);
  return { status: 500, body: { error: "Internal server error" } };
}
