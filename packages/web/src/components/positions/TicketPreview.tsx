import { useTicketPreview } from "../../hooks/positions/useTicketPreview.ts";
import { failureText } from "../../session/errors.ts";
import { checkLots } from "./checks.ts";
import { PreviewFigure, PreviewLine } from "./PreviewLine.tsx";

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
  return (
    <PreviewLine field="ticket-preview" updating={updating}>
      {(data?.legs ?? []).map((leg) => (
        <span key={leg.leg} data-field="ticket-leg" data-leg={leg.leg} data-lots={leg.lots}>
          {leg.side} {leg.lots} {leg.lots === 1 ? "lot" : "lots"} {leg.tradingsymbol}
          {leg.quantity !== leg.lots && ` (quantity ${leg.quantity})`} ·{" "}
        </span>
      ))}
      Margin{" "}
      <PreviewFigure field="ticket-preview-margin" value={data?.margin?.inr} updating={updating} />
      {data?.margin && " (Kite, both legs together)"} · costs{" "}
      <PreviewFigure field="costs-preview" value={costsInr} updating={updating} /> round trip
      {data && !data.margin && data.marginNote && (
        <span className="order-ticket__note" data-field="ticket-margin-note">
          {" "}
          ({data.marginNote})
        </span>
      )}
    </PreviewLine>
  );
}
