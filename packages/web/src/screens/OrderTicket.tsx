import { type FormEvent, useState } from "react";
import { Link, useSearch } from "wouter";
import { AppHeader } from "../components/app/AppHeader.tsx";
import { plainRupees } from "../components/positions/format.ts";
import { TicketPreview } from "../components/positions/TicketPreview.tsx";
import { KiteSessionBanner } from "../components/profile/KiteSessionBanner.tsx";
import { Checkbox, Field, SelectField } from "../components/ui/Field.tsx";
import { Message } from "../components/ui/Message.tsx";
import { Section } from "../components/ui/Section.tsx";
import { useExecution } from "../hooks/positions/useExecution.ts";
import { useSubmissionKey } from "../hooks/ui/useSubmissionKey.ts";
import { failureText } from "../session/errors.ts";
import { trpc } from "../trpc.ts";

type Request = { leg: string; method: string; path: string; body: Record<string, string> };
type TicketMargin = {
  margin: { inr: number; initialInr: number } | null;
  note: string | null;
};

/**
 * The order ticket for a spread (docs/user-guide.md "Live orders"): both legs through the trader's own
 * Kite. Dry run is on by default and shows the exact requests; sent live, the campaign's orders,
 * fills and slippage follow below.
 */
export function OrderTicket({ symbol }: { symbol: string }) {
  const [spread, initialSide] = splitSymbol(symbol);
  const [side, setSide] = useState<"BUY" | "SELL">(initialSide);
  // Pre-filled from where the ticket was opened (a paper position's "Place for real").
  const prefill = new URLSearchParams(useSearch());
  const [lots, setLots] = useState(prefill.get("lots") ?? "1");
  const fromPosition = Number(prefill.get("position")) || undefined;
  const [payUp, setPayUp] = useState("1");
  const [onHedgeFail, setOnHedgeFail] = useState<"flatten" | "alert">("flatten");
  const [dryRun, setDryRun] = useState(true);
  // Opened from a live position: the fills go into it unless the trader unticks it.
  const position = trpc.positions.get.useQuery(
    { id: fromPosition ?? 0 },
    { enabled: fromPosition !== undefined },
  );
  const liveFrom = position.data?.live ? position.data : undefined;
  const [intoLive, setIntoLive] = useState(true);
  const [requests, setRequests] = useState<Request[] | undefined>(undefined);
  const [margin, setMargin] = useState<TicketMargin | undefined>(undefined);
  const [campaignId, setCampaignId] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const submission = useSubmissionKey();
  const create = trpc.executions.create.useMutation();
  const campaign = useExecution(campaignId);
  const cancel = trpc.executions.cancel.useMutation();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    const input = {
      spread,
      side,
      lots: Number(lots),
      payUpTicks: Number(payUp),
      onHedgeFail,
      dryRun,
      ...(fromPosition !== undefined && (!liveFrom || intoLive) && { positionId: fromPosition }),
    };
    create.mutate(
      { ...input, idempotencyKey: submission.keyFor(input) },
      {
        onSuccess: (reply) => {
          submission.done();
          setRequests(reply.requests);
          setMargin(
            "marginNote" in reply ? { margin: reply.margin, note: reply.marginNote } : undefined,
          );
          if (reply.id) setCampaignId(reply.id);
        },
        onError: (e) => setError(failureText(e, { fallback: "The ticket could not be sent" })),
      },
    );
  };

  return (
    <div className="page">
      <AppHeader title={`Order ticket · ${spread}`}>
        <Link href="/">Back to Dashboard</Link>
      </AppHeader>
      <main className="screen order-ticket">
        <KiteSessionBanner />
        <Section title="Ticket">
          <form className="form" aria-label="Order ticket" onSubmit={submit}>
            <SelectField
              label="Side"
              options={["BUY", "SELL"] as const}
              value={side}
              onChange={setSide}
            />
            <Field label="Lots" inputMode="numeric" value={lots} onChange={setLots} />
            <Field label="Pay-up ticks" inputMode="numeric" value={payUp} onChange={setPayUp} />
            <SelectField
              label="If the hedge fails"
              options={["flatten", "alert"] as const}
              value={onHedgeFail}
              onChange={setOnHedgeFail}
              format={(o) => (o === "flatten" ? "Flatten the filled leg" : "Leave it and alert me")}
            />
            <TicketPreview spread={spread} side={side} lots={lots} payUpTicks={payUp} />
            {liveFrom && (
              <Checkbox
                label={
                  liveFrom.side === side
                    ? `Add to live position (${liveFrom.side} ${liveFrom.lots} lots)`
                    : `Reduce live position (${liveFrom.side} ${liveFrom.lots} lots)`
                }
                checked={intoLive}
                onChange={setIntoLive}
              />
            )}
            <Checkbox label="Dry run (send nothing)" checked={dryRun} onChange={setDryRun} />
            {error && <Message tone="error">{error}</Message>}
            <div className="form__actions">
              <button type="submit" className="button button--primary" disabled={create.isPending}>
                {dryRun ? "Show the requests" : "Send to Kite"}
              </button>
            </div>
          </form>
        </Section>
        {requests && (
          <Section title={campaignId ? "Requests sent" : "Dry run: the exact requests"}>
            <ol className="order-ticket__requests" data-testid="ticket-requests">
              {requests.map((r) => (
                <li key={`${r.leg}-${r.body.tag}`}>
                  <code>
                    {r.method} {r.path}
                  </code>
                  <pre>{new URLSearchParams(r.body).toString().replaceAll("&", "\n")}</pre>
                </li>
              ))}
            </ol>
            {margin && <BasketMargin {...margin} />}
            <p className="muted">
              The hedge's price is taken again when the first leg fills: its executable side plus
              the pay-up ticks.
            </p>
          </Section>
        )}
        {campaign.data && (
          <Section title="Campaign">
            {campaign.data.status === "naked" && (
              <Message tone="error">
                Naked leg: the first leg is filled without its hedge ({campaign.data.tripped}). Act
                in Kite now; Telegram and your webhook were told too.
              </Message>
            )}
            <dl className="facts" data-testid="campaign">
              <dt>Status</dt>
              <dd data-testid="campaign-status">{campaign.data.status}</dd>
              <dt>Target</dt>
              <dd>{campaign.data.target}</dd>
              <dt>Filled at</dt>
              <dd data-testid="campaign-filled">{campaign.data.spreadFilled ?? "—"}</dd>
              <dt>Slippage</dt>
              <dd>
                {campaign.data.slippageTicks === null
                  ? "—"
                  : `${campaign.data.slippageTicks} ticks`}
              </dd>
            </dl>
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Leg</th>
                  <th scope="col">Side</th>
                  <th scope="col">Qty</th>
                  <th scope="col">Price</th>
                  <th scope="col">Filled</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {campaign.data.orders.map((o) => (
                  <tr key={o.tag}>
                    <td>{o.leg}</td>
                    <td>{o.side}</td>
                    <td className="num">{o.quantity}</td>
                    <td className="num">{o.price ?? "market"}</td>
                    <td className="num">
                      {o.filled}
                      {o.averagePrice !== null && ` @ ${o.averagePrice}`}
                    </td>
                    <td>{o.status}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {campaign.data.live && (
              <div className="form__actions">
                <button
                  type="button"
                  className="button button--danger"
                  disabled={cancel.isPending}
                  onClick={() => campaignId && cancel.mutate({ id: campaignId })}
                >
                  Cancel
                </button>
              </div>
            )}
          </Section>
        )}
      </main>
    </div>
  );
}

/**
 * Kite's basket margin of the dry run's orders, both legs together with the trader's own
 * account (docs/user-guide.md "Live orders"), or why Kite gave none.
 */
function BasketMargin({ margin, note }: TicketMargin) {
  return (
    <p data-field="ticket-margin" data-value={margin?.inr ?? ""}>
      {margin
        ? `Kite's margin for both legs together: ${plainRupees(margin.inr)} (${plainRupees(margin.initialInr)} before the spread benefit)`
        : note}
    </p>
  );
}

/** SP7_BUY → ["SP7", "BUY"]; a symbol without a side is a BUY ticket. */
function splitSymbol(symbol: string): [string, "BUY" | "SELL"] {
  const match = /^(.+)_(BUY|SELL)$/.exec(symbol);
  return match ? [match[1] as string, match[2] as "BUY" | "SELL"] : [symbol, "BUY"];
}
