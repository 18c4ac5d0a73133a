import type { KiteSessions } from "../../src/feeds/providers/kite/session.ts";
import type { MarginPosition } from "../../src/positions/margin.ts";
import type { FakeKite } from "./fake-kite.ts";

/** The access token the fake Kite's login of the day hands out in the margin tests. */
export const KITE_TOKEN = "access-of-the-day";
/** A refresh in the background lands within this (a deadline, not a measure). */
export const REFRESH_WAIT = { timeout: 10_000, interval: 20 };
export const FEB = "GOLD26FEBFUT";
export const APR = "GOLD26APRFUT";

/** BUY 2 × a GOLD calendar: GOLD (Feb) bought, GOLD@next (Apr) sold. */
export const calendar: MarginPosition = {
  id: 7,
  lots: 2,
  legs: [
    { name: "g", instrument: "GOLD", contract: FEB, lots: 1, price: 78_000, side: "BUY" },
    { name: "gn", instrument: "GOLD@next", contract: APR, lots: 1, price: 78_900, side: "SELL" },
  ],
};

/** The admin's Kite login of the day, saved at `now` and accepted by the fake. */
export async function saveKiteLogin(
  kite: FakeKite,
  sessions: KiteSessions,
  now: number,
  token = KITE_TOKEN,
  validForMs = 3_600_000,
): Promise<void> {
  await sessions.save({
    accessToken: token,
    userId: "AB1234",
    savedAt: now,
    expiresAt: now + validForMs,
  });
  kite.validTokens.add(token);
}
