import { failureText } from "../../session/errors.ts";
import { trpc } from "../../trpc.ts";
import { Message } from "../ui/Message.tsx";

/**
 * The kill switch of live orders for everyone (docs/user-guide.md, "Live orders through your own
 * Kite"): off stops every campaign in flight at the leader's next look and refuses new tickets.
 */
export function LiveOrdersSwitch() {
  const utils = trpc.useUtils();
  const state = trpc.liveOrders.get.useQuery();
  const set = trpc.liveOrders.set.useMutation({
    onSuccess: (result) => utils.liveOrders.get.setData(undefined, result),
  });
  if (state.isPending) return <p className="muted">Loading settings...</p>;
  if (state.isError)
    return (
      <Message tone="error">
        {failureText(state.error, { fallback: "Could not load the live-orders setting" })}
      </Message>
    );
  const enabled = state.data.enabled;
  return (
    <div className="system-settings">
      <p className="system-settings__row">
        <span id="live-orders-label">Live orders through Kite, for everyone</span>
        <button
          type="button"
          role="switch"
          aria-checked={enabled}
          aria-labelledby="live-orders-label"
          className="toggle"
          disabled={set.isPending}
          onClick={() => set.mutate({ enabled: !enabled })}
        >
          {enabled ? "Enabled" : "Disabled"}
        </button>
      </p>
      <p className="muted">
        {enabled
          ? "Traders an admin enabled may send spreads to their own Kite. Switching off cancels what rests and sends nothing more."
          : "No order goes to Kite: tickets are refused and campaigns in flight stop."}
      </p>
      {set.isError && (
        <Message tone="error">
          {failureText(set.error, { fallback: "Could not change the live-orders setting" })}
        </Message>
      )}
    </div>
  );
}
