import type { Auth } from "../feeds/providers/kite/credentials.ts";
import { callOutbound, isOutboundTimeout, type OutboundOptions } from "../outbound/policy.ts";

/**
 * Kite Connect's margin calculator and virtual contract note (kite.trade/docs/connect/v3/margins):
 * what the broker itself says an MCX order basket needs as margin and costs in charges. Nothing
 * is ordered: both endpoints price hypothetical orders.
 */

/** One hypothetical order: `lots` is Kite's MCX quantity (lots, not units). */
export interface KiteOrder {
  /** Kite's exchange segment; MCX when absent (positions' legs). */
  exchange?: string;
  tradingsymbol: string;
  side: "BUY" | "SELL";
  lots: number;
  /** ₹ per quote unit: the price the margin and the turnover are reckoned at. */
  price: number;
}

/** Kite refused or failed a call; `retryable` says whether another attempt may help. */
export class KiteRestError extends Error {
  override name = "KiteRestError";
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/**
 * GET /api/positions waits on these calls (on a cache miss), so they are short: two attempts of
 * 3 s within 5 s in all, then the configured figure stands in.
 */
export const KITE_MARGIN_CALL: OutboundOptions = {
  attempts: 2,
  attemptTimeoutMs: 3_000,
  deadlineMs: 5_000,
  initialDelayMs: 200,
  maxDelayMs: 1_000,
};

/** A refusal (bad token, bad order) answers the same the second time; a 5xx, a 429 or a dropped connection may not. */
function worthRetrying(error: Error): boolean {
  return !(error instanceof KiteRestError) || error.retryable;
}

interface KiteEnvelope {
  status?: string;
  message?: string;
  error_type?: string;
  data?: unknown;
}

async function postJson(
  apiRoot: string,
  path: string,
  auth: Auth,
  body: unknown,
  call: OutboundOptions,
): Promise<unknown> {
  try {
    const retryIf = (error: Error) => worthRetrying(error) && (call.retryIf?.(error) ?? true);
    return await callOutbound({ ...call, retryIf }, async (signal) => {
      let response: Response;
      try {
        response = await fetch(`${apiRoot}${path}`, {
          method: "POST",
          headers: {
            "X-Kite-Version": "3",
            authorization: `token ${auth.apiKey}:${auth.accessToken}`,
            "content-type": "application/json",
          },
          body: JSON.stringify(body),
          signal,
        });
      } catch (error) {
        if (signal.aborted) throw error;
        throw new KiteRestError(
          `could not reach Kite (${(error as Error).message})`,
          undefined,
          true,
        );
      }
      // Read inside the attempt: its signal is aborted once it returns.
      const text = await response.text();
      let envelope: KiteEnvelope = {};
      try {
        envelope = JSON.parse(text) as KiteEnvelope;
      } catch {
        // Reported below with the status.
      }
      if (!response.ok || envelope.status !== "success") {
        const said = envelope.message
          ? `: ${envelope.error_type ?? "error"}: ${envelope.message}`
          : "";
        const retryable = response.status === 429 || response.status >= 500;
        throw new KiteRestError(
          `Kite answered HTTP ${response.status}${said}`,
          response.status,
          retryable,
        );
      }
      return envelope.data;
    });
  } catch (error) {
    if (isOutboundTimeout(error))
      throw new KiteRestError(
        `Kite did not answer within ${call.deadlineMs ?? call.attemptTimeoutMs} ms`,
        undefined,
        true,
      );
    throw error;
  }
}

function orderBody(order: KiteOrder) {
  return {
    exchange: order.exchange ?? "MCX",
    tradingsymbol: order.tradingsymbol,
    transaction_type: order.side,
    variety: "regular",
    product: "NRML",
    // LIMIT at the leg's price, so the figure is at the price the position is marked at (a
    // MARKET order would be margined at Kite's last price).
    order_type: "LIMIT",
    quantity: order.lots,
    price: order.price,
    trigger_price: 0,
  };
}

const isAmount = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0;

/** The basket's margin before (`initialInr`) and after (`finalInr`) Kite's spread benefit. */
export interface BasketMargin {
  initialInr: number;
  finalInr: number;
}

/**
 * POST /margins/basket?consider_positions=true&mode=compact: the margin of the orders together
 * (a calendar's two legs offset), `initial.total` and `final.total`.
 */
export async function kiteBasketMargin(
  apiRoot: string,
  auth: Auth,
  orders: readonly KiteOrder[],
  call: OutboundOptions = KITE_MARGIN_CALL,
): Promise<BasketMargin> {
  const data = (await postJson(
    apiRoot,
    "/margins/basket?consider_positions=true&mode=compact",
    auth,
    orders.map(orderBody),
    call,
  )) as { initial?: { total?: unknown }; final?: { total?: unknown } } | undefined;
  const initial = data?.initial?.total;
  const final = data?.final?.total;
  if (!isAmount(initial) || !isAmount(final))
    throw new KiteRestError("Kite's basket margins lack initial.total or final.total", 200, false);
  return { initialInr: initial, finalInr: final };
}

/**
 * POST /charges/orders (the virtual contract note): each order's `charges.total` in ₹ —
 * brokerage, CTT, exchange and SEBI charges, stamp duty and GST as the broker computes them.
 */
export async function kiteOrderCharges(
  apiRoot: string,
  auth: Auth,
  orders: readonly KiteOrder[],
  call: OutboundOptions = KITE_MARGIN_CALL,
): Promise<number[]> {
  const data = await postJson(
    apiRoot,
    "/charges/orders",
    auth,
    orders.map((order, i) => {
      const { price, trigger_price: _t, ...rest } = orderBody(order);
      return { order_id: String(i + 1), ...rest, average_price: price };
    }),
    call,
  );
  if (!Array.isArray(data) || data.length !== orders.length)
    throw new KiteRestError("Kite's contract note does not list every order", 200, false);
  return data.map((row) => {
    const total = (row as { charges?: { total?: unknown } } | null)?.charges?.total;
    if (!isAmount(total))
      throw new KiteRestError("Kite's contract note lacks charges.total", 200, false);
    return total;
  });
}
