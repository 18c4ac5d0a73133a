// A trader's Kite session ends every day at 06:00 IST (docs/user-guide.md "Live orders through
// your own Kite"): the ticket and Profile warn within the hour before, and say so once it ended.

/** How long before the session's end the warning shows. */
export const KITE_SESSION_WARN_MS = 60 * 60_000;

export type KiteSessionNotice = { kind: "ending"; minutesLeft: number } | { kind: "ended" };

/** The warning a linked session calls for at `now`, if any (undefined: none, or not linked). */
export function kiteSessionNotice(
  expiresAt: number | null | undefined,
  now: number,
): KiteSessionNotice | undefined {
  if (expiresAt === null || expiresAt === undefined) return undefined;
  if (expiresAt <= now) return { kind: "ended" };
  if (expiresAt - now > KITE_SESSION_WARN_MS) return undefined;
  return { kind: "ending", minutesLeft: Math.ceil((expiresAt - now) / 60_000) };
}
