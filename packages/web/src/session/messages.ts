import type { ExpiryReason } from "./errors.ts";

/** What the login screen says after the server ended the session, per reason (docs/spec.md §4). */
export const EXPIRY_MESSAGES: Record<ExpiryReason, string> = {
  replaced:
    "Your session was terminated because you logged in from another device or browser. For security, we only allow one active session at a time.",
  password_changed: "Your password was changed. Please log in again.",
  user_deleted: "Your account has been deleted.",
  expired: "Your session expired. Please log in again.",
};

export const OTHER_SESSIONS_ENDED = "You have been logged out from other devices or browsers.";
