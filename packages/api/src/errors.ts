import type { ZodError } from "zod";

// What procedures and the services under them throw, and the sentence a zod failure becomes:
// below rest/ and routers/, which turn them into HTTP answers (docs/http-api.md: every error is
// `{ "error": "…" }` naming the field).

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
