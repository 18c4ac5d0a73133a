import { useTicketPreview } from "../../hooks/positions/useTicketPreview.ts";
import { failureText } from "../../session/errors.ts";
import { checkLots } from "./checks.ts";
import { plainRupees } from "./format.ts";

/**
 * What the ticket will send, before it is sent (docs/user-guide.md "Live orders"): each leg's
 * side, lots and contract, Kite's margin for those very orders together, and the round trip's
 * costs of those lots. The server answers them from the same campaign and margin call as the dry
 * run, so a calendar whose legs name no lots reads "1 lot" on each leg here exactly as its
 * requests carry them, costs those lots, and the margin here is the one the dry run shows.
 */
export function TicketPreview(props: {
  spread: string;
  side: "BUY" | "SELL";
  lots: string;
  payUpTicks: string;
}) {
  const count = checkLots(props.lots);
  const valid = typeof count === "number";
  const payUp = /^\d+$/.test(props.payUpTicks.trim()) ? Number(props.payUpTicks) : undefined;
  const ticket = useTicketPreview({
    spread: props.spread,
    side: props.side,
    lots: valid ? count : undefined,
    payUpTicks: payUp,
  });
  const updating = valid && ticket.isPending;
  if (valid && ticket.error)
    return (
      <p className="muted" data-field="ticket-preview" data-state="refused" aria-live="polite">
        {failureText(ticket.error, { fallback: "The ticket cannot be previewed now" })}
      </p>
    );
  const data = valid ? ticket.data : undefined;
  const costsInr = data?.costsInr;
  const figure = (value: number | null | undefined) => (updating ? "…" : plainRupees(value));
  return (
    <p
      className="position-modal__preview muted"
      data-field="ticket-preview"
      data-state={updating ? "updating" : "current"}
      aria-live="polite"
      aria-busy={updating}
    >
      {(data?.legs ?? []).map((leg) => (
        <span key={leg.leg} data-field="ticket-leg" data-leg={leg.leg} data-lots={leg.lots}>
          {leg.side} {leg.lots} {leg.lots === 1 ? "lot" : "lots"} {leg.tradingsymbol}
          {leg.quantity !== leg.lots && ` (quantity ${leg.quantity})`} ·{" "}
        </span>
      ))}
      Margin{" "}
      <span data-field="ticket-preview-margin" data-value={data?.margin?.inr ?? ""}>
        {figure(data?.margin?.inr)}
      </span>
      {data?.margin && " (Kite, both legs together)"} · costs{" "}
      <span data-field="costs-preview" data-value={costsInr ?? ""}>
        {figure(costsInr)}
      </span>{" "}
      round trip
      {data && !data.margin && data.marginNote && (
        <span className="order-ticket__note" data-field="ticket-margin-note">
          {" "}
          ({data.marginNote})
        </span>
      )}
    </p>
  );
}
