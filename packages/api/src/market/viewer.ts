import { resolveSession, type SessionContext } from "../auth/session.ts";
import type { MarketHub } from "./hub.ts";

/**
 * The signed-in user a market answer is for (undefined: nobody), who sees their private spreads
 * besides everybody's. `whenPrivate`: skip reading the session while nobody has a private
 * spread, as every viewer then sees the same (a poll's answer; a stream lives on, so it asks).
 */
export async function marketViewer(
  ctx: SessionContext & { services: { hub: Pick<MarketHub, "hasPrivate"> } },
  whenPrivate = false,
): Promise<number | undefined> {
  if (whenPrivate && !ctx.services.hub.hasPrivate) return undefined;
  const session = await resolveSession(ctx);
  return session.kind === "valid" ? session.user.id : undefined;
}
