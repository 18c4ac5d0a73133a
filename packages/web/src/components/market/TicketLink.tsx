import { parseExecutableSymbol } from "@spreadwatch/core";
import { ScreenLink } from "../app/ScreenLink.tsx";

/**
 * The order ticket's address for an executable symbol (SP7_BUY), with the lots and the paper
 * position it places for real pre-filled (docs/user-guide.md "Live orders").
 */
export function ticketHref(symbol: string, prefill: { lots?: number; positionId?: number } = {}) {
  const query = new URLSearchParams();
  if (prefill.lots !== undefined) query.set("lots", String(prefill.lots));
  if (prefill.positionId !== undefined) query.set("position", String(prefill.positionId));
  const search = query.toString();
  return `/ticket/${symbol}${search ? `?${search}` : ""}`;
}

/** A link to the ticket; nothing for a symbol that has no BUY/SELL side to send. */
export function TicketLink({
  symbol,
  lots,
  positionId,
  label = "Send to Kite",
  small = false,
}: {
  symbol: string;
  lots?: number;
  positionId?: number;
  label?: string;
  small?: boolean;
}) {
  if (!parseExecutableSymbol(symbol)) return null;
  return (
    <ScreenLink
      href={ticketHref(symbol, { lots, positionId })}
      className={small ? "button button--small" : "button"}
      data-action="ticket"
    >
      {label}
    </ScreenLink>
  );
}
