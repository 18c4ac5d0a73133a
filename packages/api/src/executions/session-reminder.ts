// The reminder before a trader's own Kite session ends (docs/user-guide.md "Live orders"): Kite
// ends every session at 06:00 IST, and a campaign still working then, or a live position's
// naked-leg watch, stops being able to act. So a trader with live work (an open campaign or an
// open live position) is told once per session, REMINDER_BEFORE_MS before its end: a History row
// (the browser's) and the trader's Telegram and webhook, written as a naked-leg alert is.
import type { Store } from "@spreadwatch/db";
import { formatIstIso } from "../alerts/firing-payload.ts";
import { log } from "../log.ts";
import type { KiteLinks } from "./kite-link.ts";

/** How long before the session's end the trader is reminded. */
export const REMINDER_BEFORE_MS = 30 * 60_000;
/** How often the leader looks (a minute late at most). */
export const REMINDER_CHECK_MS = 60_000;

const remindedKey = (userId: number) => `kite.link.reminded.${userId}`;

/** 06:00 for a session's end: IST is UTC+05:30 all year. */
const istClock = (at: number) => new Date(at + 330 * 60_000).toISOString().slice(11, 16);

export function sessionReminderText(expiresAt: number, now: number): string {
  const minutes = Math.ceil((expiresAt - now) / 60_000);
  return (
    `⏰ Your Kite session ends at ${istClock(expiresAt)} IST, in ${minutes} min, and you ` +
    "have live work open (a campaign or a live position). Connect Kite again in Spreadwatch's " +
    "Profile after it ends, or nothing more can be sent for you."
  );
}

export class KiteSessionReminders {
  constructor(
    private readonly store: Pick<Store, "executions" | "positions" | "keyValues" | "firings">,
    private readonly links: Pick<KiteLinks, "view">,
    private readonly onQueued: () => void,
  ) {}

  /** Reminds every trader with live work whose session ends within the window; whom it told. */
  async remind(now: number): Promise<number[]> {
    const owners = new Set<number>();
    for (const row of await this.store.executions.listOpen()) owners.add(row.ownerId);
    for (const p of await this.store.positions.listOpen())
      if (p.executionId !== null) owners.add(p.ownerId);
    const told: number[] = [];
    for (const userId of owners) if (await this.remindOne(userId, now)) told.push(userId);
    return told;
  }

  private async remindOne(userId: number, now: number): Promise<boolean> {
    const link = await this.links.view(userId);
    if (!link || link.expiresAt <= now || link.expiresAt - now > REMINDER_BEFORE_MS) return false;
    // Once per session: its end marks it (a new login is a new session with a new end).
    if ((await this.store.keyValues.get<number>(remindedKey(userId))) === link.expiresAt)
      return false;
    // Marked first: a crash between the two loses a reminder rather than doubling it.
    await this.store.keyValues.set(remindedKey(userId), link.expiresAt, now);
    const text = sessionReminderText(link.expiresAt, now);
    const [recorded] = await this.store.firings.recordPositionCrossings([
      {
        userId,
        symbol: "KITE_SESSION",
        value: Math.ceil((link.expiresAt - now) / 60_000),
        threshold: REMINDER_BEFORE_MS / 60_000,
        direction: "below",
        state: "fired",
        note: text,
        at: now,
        now,
        text,
        webhookBody: (firingId) =>
          JSON.stringify({
            event: "kite.session.ending",
            firingId,
            kiteUserId: link.kiteUserId,
            expiresAt: link.expiresAt,
            expiresAtIst: formatIstIso(link.expiresAt),
            firedAt: now,
            firedAtIst: formatIstIso(now),
            text,
          }),
      },
    ]);
    log.info(
      { userId, expiresAt: link.expiresAt },
      "reminded a trader of their Kite session's end",
    );
    if ((recorded?.outbox.length ?? 0) > 0) this.onQueued();
    return true;
  }
}
