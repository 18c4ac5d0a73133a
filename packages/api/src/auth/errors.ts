import { TRPCError } from "@trpc/server";
import { ErrorWithFields } from "../errors.ts";
import type { SessionState } from "./session.ts";

const ENDED_MESSAGES = {
  replaced:
    "Your session was terminated because you logged in from another device or browser. For security, we only allow one active session at a time.",
  password_changed: "Your password was changed. Please log in again.",
  user_deleted: "Your account has been deleted.",
  expired: "Your session expired. Please log in again.",
} as const;

/**
 * 401 for a request without a valid session. A session that was ended (by a login elsewhere, a
 * password change…) carries `session_expired: true` and the reason, as docs/spec.md §4 asks.
 */
export function unauthorized(state: Exclude<SessionState, { kind: "valid" }>): TRPCError {
  if (state.kind === "none")
    return new TRPCError({ code: "UNAUTHORIZED", message: "Please log in." });
  const message = ENDED_MESSAGES[state.reason];
  return new TRPCError({
    code: "UNAUTHORIZED",
    message,
    cause: new ErrorWithFields(message, { session_expired: true, reason: state.reason }),
  });
}

export function forbidden(message = "Administrator access required."): TRPCError {
  return new TRPCError({ code: "FORBIDDEN", message });
}
