// The ticket's margin (docs/user-guide.md "Live orders"): Kite's basket margin of both legs in
// one request, asked with the trader's own Kite session. One basket, not a figure per leg,
// because Kite gives a calendar's offsetting legs a spread benefit only when it sees them
// together; the trader's own account, because `consider_positions` counts what they already hold.
import type { Store } from "@spreadwatch/db";
import type { KiteSettings } from "../config/index.ts";
import { type KiteOrder, kiteBasketMargin } from "../positions/kite-margins.ts";
import { KiteLinks } from "./kite-link.ts";
import type { OrderRequest } from "./kite-orders.ts";

export interface TicketMargin {
  /** What the basket blocks once Kite's spread benefit is taken (`final.total`), ₹. */
  inr: number;
  /** Before the benefit (`initial.total`), ₹. */
  initialInr: number;
  source: "kite";
  at: number;
}

/** The figure, or null and a sentence saying why there is none. */
export interface TicketMarginReply {
  margin: TicketMargin | null;
  marginNote: string | null;
}

/** The ticket's orders as Kite's margin calculator takes them: each placement's form. */
export function basketOf(requests: ReadonlyArray<OrderRequest>): KiteOrder[] | undefined {
  const orders: KiteOrder[] = [];
  for (const { body } of requests) {
    const price = Number(body.price);
    const lots = Number(body.quantity);
    if (!body.tradingsymbol || !Number.isFinite(price) || !(lots > 0)) return undefined;
    orders.push({
      exchange: body.exchange,
      tradingsymbol: body.tradingsymbol,
      side: body.transaction_type === "SELL" ? "SELL" : "BUY",
      lots,
      price,
    });
  }
  return orders;
}

export async function ticketMargin(
  services: { store: Store; kite: KiteSettings; auth: { password: string } },
  userId: number,
  requests: ReadonlyArray<OrderRequest>,
  now: () => number = Date.now,
): Promise<TicketMarginReply> {
  const none = (marginNote: string): TicketMarginReply => ({ margin: null, marginNote });
  const { apiKey, apiRoot } = services.kite;
  if (!apiKey) return none("Kite Connect is not configured on this server");
  const orders = basketOf(requests);
  if (!orders || orders.length === 0) return none("The ticket has no priced orders to margin");
  const token = await new KiteLinks(services.store, services.auth.password).accessToken(
    userId,
    now(),
  );
  if (token === undefined)
    return none("Connect your Kite in Profile to see Kite's margin for these orders");
  try {
    const basket = await kiteBasketMargin(apiRoot, { apiKey, accessToken: token }, orders);
    return {
      margin: { inr: basket.finalInr, initialInr: basket.initialInr, source: "kite", at: now() },
      marginNote: null,
    };
  } catch (error) {
    return none(`Kite's margin could not be had: ${(error as Error).message}`);
  }
}
