import type { KiteSettings } from "../../../config/index.ts";
import type { StoredSession } from "./session.ts";

export interface Auth {
  apiKey: string;
  accessToken: string;
}

export const LOGIN_HINT = "an admin logs in at /api/kite/login (or runs the kite CLI)";

/**
 * The app key and today's stored access token, or what is missing, worded for the admin: no key,
 * no token yet, an unreadable or expired session, or the token Kite already refused.
 */
export function kiteCredentials(
  settings: KiteSettings,
  stored: StoredSession,
  rejectedToken: string | undefined,
): Auth | { missing: string } {
  const { apiKey } = settings;
  if (!apiKey) return { missing: "KITE_API_KEY and KITE_API_SECRET are not set" };
  if (stored.kind === "missing") return { missing: `no Kite access token yet: ${LOGIN_HINT}` };
  if (stored.kind === "unreadable")
    return { missing: `the stored Kite session is unreadable (${stored.reason})` };
  if (stored.kind === "expired") {
    const at = new Date(stored.session.expiresAt).toISOString();
    return { missing: `the Kite access token expired at ${at}: ${LOGIN_HINT}` };
  }
  if (stored.session.accessToken === rejectedToken)
    return { missing: `Kite refused the stored access token: ${LOGIN_HINT}` };
  return { apiKey, accessToken: stored.session.accessToken };
}
