import { formatIstTime, kiteSessionNotice } from "@spreadwatch/core";
import { useKiteLink } from "../../hooks/positions/useKiteLink.ts";
import { useNow } from "../../hooks/ui/useNow.ts";
import { ScreenLink } from "../app/ScreenLink.tsx";

/**
 * Kite ends every session at 06:00 IST: within the hour before, and once it has ended, the ticket
 * and Profile say so, so a trader reconnects before sending (docs/user-guide.md "Live orders
 * through your own Kite").
 */
export function KiteSessionBanner({ onProfile = false }: { onProfile?: boolean }) {
  const link = useKiteLink();
  const now = useNow(30_000);
  const data = link.data;
  const notice = data?.linked ? kiteSessionNotice(data.expiresAt, now) : undefined;
  if (!notice || !data) return null;
  const again = onProfile ? " Connect Kite again below." : null;
  return (
    <div className="message message--error" role="alert" data-testid="kite-session-banner">
      {notice.kind === "ended"
        ? `Your Kite session ended at ${formatIstTime(data.expiresAt)}; nothing can be sent until you connect Kite again.`
        : `Your Kite session ends at ${formatIstTime(data.expiresAt)}, in ${notice.minutesLeft} min; a campaign still working then stops being watched.`}
      {again ?? (
        <>
          {" "}
          <ScreenLink href="/profile">Connect Kite in Profile</ScreenLink>.
        </>
      )}
    </div>
  );
}
