import type { GuardOrder, GuardOrderState } from "@spreadwatch/core";
import type { Auth } from "../feeds/providers/kite/credentials.ts";
import { callOutbound, isOutboundTimeout } from "../outbound/policy.ts";

/**
 * Kite Connect's order API with a trader's own session (kite.trade/docs/connect/v3/orders).
 * Every call is one attempt: whether to try again is the campaign's decision, since a placement
 * whose answer was lost may have placed an order (it is looked up by tag first).
 */

/** A placement is answered within this, or its outcome is unknown. */
export const ORDER_CALL_TIMEOUT_MS = 5_000;

/**
 * refused: Kite answered no (nothing placed); throttled: 429 (nothing placed, try later);
 * unknown: no answer, a 5xx or a broken connection (an order may exist: look it up by tag).
 */
export class KiteOrderError extends Error {
  override name = "KiteOrderError";
  constructor(
    message: string,
    readonly kind: "refused" | "throttled" | "unknown",
  ) {
    super(message);
  }
}

/** One order as `GET /orders` lists it: the fields the guard reads. */
export interface KiteOrderRow {
  order_id: string;
  status: string;
  status_message: string | null;
  tag: string | null;
  filled_quantity: number;
  average_price: number;
  order_timestamp?: string;
}

/** The request an order is, exactly as sent (the ticket's dry run shows these). */
export interface OrderRequest {
  method: "POST" | "DELETE";
  path: string;
  body: Record<string, string>;
}

export interface OrderLeg {
  exchange: string;
  tradingsymbol: string;
  product: string;
}

/** `POST /orders/regular`'s form for one of the guard's orders. */
export function placeRequest(order: GuardOrder, leg: OrderLeg): OrderRequest {
  const body: Record<string, string> = {
    tradingsymbol: leg.tradingsymbol,
    exchange: leg.exchange,
    transaction_type: order.side,
    quantity: String(order.quantity),
    product: leg.product,
    validity: "DAY",
    tag: order.tag,
  };
  if (order.price === null) {
    // Kite refuses a MARKET order without market protection; -1 is its automatic band.
    body.order_type = "MARKET";
    body.market_protection = "-1";
  } else {
    body.order_type = "LIMIT";
    body.price = String(order.price);
  }
  return { method: "POST", path: "/orders/regular", body };
}

interface Envelope {
  status?: string;
  message?: string;
  error_type?: string;
  data?: unknown;
}

async function call(
  apiRoot: string,
  auth: Auth,
  method: string,
  path: string,
  form?: Record<string, string>,
): Promise<unknown> {
  let answer: { status: number; envelope: Envelope };
  try {
    answer = await callOutbound(
      { attempts: 1, attemptTimeoutMs: ORDER_CALL_TIMEOUT_MS },
      async (signal) => {
        const response = await fetch(`${apiRoot}${path}`, {
          method,
          headers: {
            "X-Kite-Version": "3",
            authorization: `token ${auth.apiKey}:${auth.accessToken}`,
            ...(form && { "content-type": "application/x-www-form-urlencoded" }),
          },
          ...(form && { body: new URLSearchParams(form).toString() }),
          signal,
        });
        // Read inside the attempt: its signal is aborted once it returns.
        const text = await response.text();
        let envelope: Envelope = {};
        try {
          envelope = JSON.parse(text) as Envelope;
        } catch {
          // Reported below with the status.
        }
        return { status: response.status, envelope };
      },
    );
  } catch (error) {
    const why = isOutboundTimeout(error)
      ? `no answer within ${ORDER_CALL_TIMEOUT_MS} ms`
      : (error as Error).message;
    throw new KiteOrderError(`Kite did not answer (${why})`, "unknown");
  }
  const { status, envelope } = answer;
  if (status === 200 && envelope.status === "success") return envelope.data;
  const said = `Kite answered HTTP ${status}: ${envelope.error_type ?? "error"}: ${envelope.message ?? ""}`;
  if (status === 429) throw new KiteOrderError(said, "throttled");
  if (status >= 500) throw new KiteOrderError(said, "unknown");
  throw new KiteOrderError(said, "refused");
}

/** Places an order; its Kite order id. */
export async function placeOrder(
  apiRoot: string,
  auth: Auth,
  request: OrderRequest,
): Promise<string> {
  const data = (await call(apiRoot, auth, "POST", request.path, request.body)) as {
    order_id?: unknown;
  };
  if (typeof data?.order_id !== "string")
    throw new KiteOrderError("Kite's answer lacks order_id", "unknown");
  return data.order_id;
}

export async function cancelOrder(apiRoot: string, auth: Auth, orderId: string): Promise<void> {
  await call(apiRoot, auth, "DELETE", `/orders/regular/${encodeURIComponent(orderId)}`);
}

/** The account's orders of the day. */
export async function listOrders(apiRoot: string, auth: Auth): Promise<KiteOrderRow[]> {
  const data = await call(apiRoot, auth, "GET", "/orders");
  if (!Array.isArray(data)) throw new KiteOrderError("Kite's orders are not a list", "unknown");
  return data as KiteOrderRow[];
}

const TERMINAL: Record<string, GuardOrderState> = {
  COMPLETE: "complete",
  CANCELLED: "cancelled",
  REJECTED: "rejected",
};

/**
 * An order as Kite last listed it. Updates may come out of order: a settled order never goes
 * back to open, and a fill never shrinks.
 */
export function mergeKiteRow(order: GuardOrder, row: KiteOrderRow): GuardOrder {
  const settled = !["sending", "unknown", "open"].includes(order.state);
  const state = settled ? order.state : (TERMINAL[row.status] ?? "open");
  const filled = Math.max(order.filled, Number(row.filled_quantity) || 0);
  const averagePrice =
    filled > order.filled || order.averagePrice === null
      ? Number(row.average_price) || order.averagePrice
      : order.averagePrice;
  return {
    ...order,
    orderId: order.orderId ?? row.order_id,
    state,
    filled,
    averagePrice: filled > 0 ? averagePrice : null,
    message: state === "rejected" ? (row.status_message ?? order.message) : order.message,
  };
}
