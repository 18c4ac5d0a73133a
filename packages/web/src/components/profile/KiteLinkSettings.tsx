import { formatIstTimestamp } from "@spreadwatch/core";
import { useKiteLink } from "../../hooks/positions/useKiteLink.ts";
import { useFlash } from "../../hooks/ui/useFlash.ts";
import { failureText } from "../../session/errors.ts";
import { trpc } from "../../trpc.ts";
import { FlashMessages, Message } from "../ui/Message.tsx";
import { KiteSessionBanner } from "./KiteSessionBanner.tsx";

/**
 * The trader's own Kite session for live orders (docs/user-guide.md "Live orders"): connected through
 * Kite's login (GET /api/profile/kite/login → Kite → /api/kite/callback), shown with its expiry
 * (Kite ends every session at 06:00 IST), revocable. Whether live orders are on for this trader
 * and their lot limit are the admin's; shown here so the trader knows before a ticket.
 */
export function KiteLinkSettings() {
  const link = useKiteLink();
  const utils = trpc.useUtils();
  const flash = useFlash();
  const disconnect = trpc.profileKite.remove.useMutation({
    onSettled: () => utils.profileKite.get.invalidate(),
  });
  if (link.isPending) return <p className="muted">Checking your Kite connection…</p>;
  if (link.isError)
    return <Message tone="error">Could not check your Kite connection. Please try again.</Message>;
  const data = link.data;
  const sendDisconnect = () => {
    flash.clear();
    disconnect.mutate(undefined, {
      onSuccess: () => flash.showSuccess("Kite disconnected"),
      onError: (error) => flash.showError(failureText(error, { fallback: "Could not disconnect" })),
    });
  };
  return (
    <div className="kite-link" data-testid="kite-link">
      <KiteSessionBanner onProfile />
      <FlashMessages flash={flash} />
      {data.linked && !data.expired ? (
        <p data-testid="kite-link-status">
          Connected as <strong>{data.kiteUserId}</strong> until{" "}
          {formatIstTimestamp(data.expiresAt ?? 0)}
        </p>
      ) : (
        <p data-testid="kite-link-status" className="muted">
          {data.linked
            ? `Your Kite session ended at ${formatIstTimestamp(data.expiresAt ?? 0)}. Connect again to send orders.`
            : "Not connected. Orders go through your own Kite account, only when you send them from a ticket."}
        </p>
      )}
      <dl className="facts">
        <dt>Live orders</dt>
        <dd data-testid="kite-live-orders">
          {data.liveOrders ? "Enabled by an admin" : "Off (an admin enables them)"}
        </dd>
        <dt>Most lots per ticket</dt>
        <dd>{data.maxLots}</dd>
      </dl>
      <div className="form__actions form__actions--wrap">
        <a className="button button--primary" href="/api/profile/kite/login">
          {data.linked ? "Reconnect Kite" : "Connect Kite"}
        </a>
        {data.linked && (
          <button
            type="button"
            className="button button--danger"
            onClick={sendDisconnect}
            disabled={disconnect.isPending}
          >
            Disconnect
          </button>
        )}
      </div>
    </div>
  );
}
