import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Kite Connect's order API on loopback (kite.trade/docs/connect/v3/orders): `POST
 * /orders/regular` form-encoded answers `{status:"success",data:{order_id}}`; `PUT` and `DELETE
 * /orders/regular/:id` modify and cancel; `GET /orders`, `GET /orders/:id` (the order's history)
 * and `GET /trades` read the account's day. Errors are `{status:"error",error_type,message}`.
 * Orders are per account (the access token); nothing fills unless the test (or `policy`) says.
 */

/** One order as Kite lists it (the fields the app reads, and a few it does not). */
export interface KiteOrderRow {
  order_id: string;
  exchange_order_id: string | null;
  placed_by: string;
  variety: string;
  status: "OPEN" | "COMPLETE" | "CANCELLED" | "REJECTED" | "PUT ORDER REQ RECEIVED";
  status_message: string | null;
  tradingsymbol: string;
  exchange: string;
  transaction_type: "BUY" | "SELL";
  order_type: string;
  product: string;
  validity: string;
  quantity: number;
  price: number;
  trigger_price: number;
  average_price: number;
  filled_quantity: number;
  pending_quantity: number;
  cancelled_quantity: number;
  market_protection: number;
  tag: string | null;
  tags: string[];
  order_timestamp: string;
  exchange_timestamp: string | null;
}

export interface KiteTradeRow {
  trade_id: string;
  order_id: string;
  exchange: string;
  tradingsymbol: string;
  transaction_type: "BUY" | "SELL";
  product: string;
  quantity: number;
  average_price: number;
  fill_timestamp: string;
}

/**
 * What the next order request meets: an HTTP error (429, 5xx) without placing anything, "hang"
 * (never answers, nothing placed), "lost" (placed, but the answer never comes back: the case a
 * retry must look up by tag), or a rejection (placed, then REJECTED with Kite's message).
 */
export type OrderFault =
  | { status: number; errorType?: string; message?: string }
  | "hang"
  | "lost"
  | { reject: string };

/** What happens to a placed order at once: it rests, fills fully or partly, or is rejected. */
export type PlacePolicy = (order: KiteOrderRow) => "rest" | "fill" | number | { reject: string };

/** One request the fake got, as sent. */
export interface SeenOrderRequest {
  method: string;
  path: string;
  form: Record<string, string>;
  account: string | undefined;
  at: number;
  /** performance.now() at arrival, for benches. */
  perfAt: number;
}

const ORDER_FIELDS = [
  "tradingsymbol",
  "exchange",
  "transaction_type",
  "order_type",
  "quantity",
  "product",
] as const;

export class KiteOrderBook {
  readonly orders = new Map<string, KiteOrderRow & { account: string }>();
  readonly trades: Array<KiteTradeRow & { account: string }> = [];
  readonly seen: SeenOrderRequest[] = [];
  /** Access token → Kite user id: each trader's own session. */
  readonly accounts = new Map<string, string>();
  /** Faults met by the next `POST /orders/regular` requests, in order. */
  readonly placeFaults: OrderFault[] = [];
  /** Faults met by the next reads (`GET /orders…`, `GET /trades`), in order. */
  readonly readFaults: OrderFault[] = [];
  /** Decides each placed order's fate; by default it rests on the book. */
  policy: PlacePolicy = () => "rest";
  /** Orders per second per account beyond which Kite answers 429 (Kite: 10). */
  perSecond = 10;
  /** Called after every change of an order (a test's hook, the ticker's order updates). */
  onUpdate: (order: KiteOrderRow) => void = () => {};
  private sequence = 0;
  private readonly sentAt = new Map<string, number[]>();

  /** A trader's session: `token` is valid and names Kite user `userId`. */
  addAccount(token: string, userId: string): void {
    this.accounts.set(token, userId);
  }

  /** Every order carrying `tag`, whatever its state. */
  tagged(tag: string): KiteOrderRow[] {
    return [...this.orders.values()].filter((o) => o.tag === tag);
  }

  /** POST /orders/regular requests seen (each one a possible order). */
  placements(): SeenOrderRequest[] {
    return this.seen.filter((r) => r.method === "POST");
  }

  /** Fills `quantity` more of an open order at `price` (its limit when absent). */
  fill(orderId: string, quantity?: number, price?: number): void {
    const order = this.orders.get(orderId);
    if (order?.status !== "OPEN") throw new Error(`order ${orderId} is not open`);
    const qty = Math.min(quantity ?? order.pending_quantity, order.pending_quantity);
    const at = price ?? order.price;
    order.average_price =
      (order.average_price * order.filled_quantity + at * qty) / (order.filled_quantity + qty);
    order.filled_quantity += qty;
    order.pending_quantity -= qty;
    if (order.pending_quantity === 0) order.status = "COMPLETE";
    order.exchange_timestamp = kiteTime(Date.now());
    this.trades.push({
      trade_id: String(90_000_000 + this.trades.length + 1),
      order_id: order.order_id,
      exchange: order.exchange,
      tradingsymbol: order.tradingsymbol,
      transaction_type: order.transaction_type,
      product: order.product,
      quantity: qty,
      average_price: at,
      fill_timestamp: kiteTime(Date.now()),
      account: order.account,
    });
    this.onUpdate(order);
  }

  /** Rejects an open order after the fact (the exchange's RMS refusing it). */
  reject(orderId: string, message: string): void {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    order.status = "REJECTED";
    order.status_message = message;
    order.cancelled_quantity = order.pending_quantity;
    order.pending_quantity = 0;
    this.onUpdate(order);
  }

  /** The open orders on `tradingsymbol` (any account). */
  open(tradingsymbol?: string): KiteOrderRow[] {
    return [...this.orders.values()].filter(
      (o) => o.status === "OPEN" && (!tradingsymbol || o.tradingsymbol === tradingsymbol),
    );
  }

  /** Handles an order path; false when the path is not one of the order API's. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    const path = url.pathname;
    const one = /^\/orders\/regular\/([\w-]+)$/.exec(path);
    const history = /^\/orders\/([\w-]+)$/.exec(path);
    const known =
      (req.method === "POST" && path === "/orders/regular") ||
      ((req.method === "PUT" || req.method === "DELETE") && one) ||
      (req.method === "GET" && (path === "/orders" || path === "/trades" || history));
    if (!known) return false;
    readForm(req, (form) => this.answer(req, res, path, form, one?.[1] ?? history?.[1]));
    return true;
  }

  private answer(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    form: Record<string, string>,
    id: string | undefined,
  ) {
    const token = /^token [^:]+:(.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const account = token ? this.accounts.get(token) : undefined;
    const method = req.method ?? "GET";
    this.seen.push({ method, path, form, account, at: Date.now(), perfAt: performance.now() });
    if (req.headers["x-kite-version"] !== "3" || !account)
      return error(res, 403, "TokenException", "Incorrect `api_key` or `access_token`.");
    if (method === "GET") return this.read(res, path, id, account);
    if (method === "POST") return this.place(req, res, form, account);
    const order = id ? this.orders.get(id) : undefined;
    if (!order || order.account !== account)
      return error(res, 400, "InputException", "Invalid `order_id`.");
    if (order.status !== "OPEN")
      return error(
        res,
        400,
        "InputException",
        `Order cannot be ${method === "PUT" ? "modified" : "cancelled"} as it is being processed or is already ${order.status.toLowerCase()}.`,
      );
    if (method === "DELETE") {
      order.status = "CANCELLED";
      order.cancelled_quantity = order.pending_quantity;
      order.pending_quantity = 0;
    } else {
      if (form.price !== undefined) order.price = Number(form.price);
      if (form.quantity !== undefined) {
        order.quantity = Number(form.quantity);
        order.pending_quantity = order.quantity - order.filled_quantity;
      }
      if (form.order_type) order.order_type = form.order_type;
    }
    this.onUpdate(order);
    success(res, { order_id: order.order_id });
  }

  private read(res: ServerResponse, path: string, id: string | undefined, account: string) {
    const fault = this.readFaults.shift();
    if (fault === "hang" || fault === "lost") return;
    if (fault && "status" in fault)
      return error(res, fault.status, fault.errorType ?? "NetworkException", fault.message ?? "");
    const mine = [...this.orders.values()].filter((o) => o.account === account).map(strip);
    if (path === "/orders") return success(res, mine);
    if (path === "/trades")
      return success(
        res,
        this.trades.filter((t) => t.account === account).map(({ account: _a, ...t }) => t),
      );
    const order = mine.find((o) => o.order_id === id);
    if (!order) return error(res, 400, "InputException", "Invalid `order_id`.");
    success(res, [order]);
  }

  private place(
    _req: IncomingMessage,
    res: ServerResponse,
    form: Record<string, string>,
    account: string,
  ) {
    const now = Date.now();
    const recent = (this.sentAt.get(account) ?? []).filter((t) => t > now - 1000);
    if (recent.length >= this.perSecond)
      return error(res, 429, "NetworkException", "Too many requests");
    this.sentAt.set(account, [...recent, now]);
    const fault = this.placeFaults.shift();
    if (fault === "hang") return;
    if (fault && typeof fault === "object" && "status" in fault)
      return error(res, fault.status, fault.errorType ?? "NetworkException", fault.message ?? "");
    for (const field of ORDER_FIELDS)
      if (!form[field]) return error(res, 400, "InputException", `Missing \`${field}\``);
    if (form.tag && form.tag.length > 20)
      return error(res, 400, "InputException", "Tag length should be less than 20");
    if (form.order_type === "LIMIT" && !(Number(form.price) > 0))
      return error(res, 400, "InputException", "Invalid `price`.");
    this.sequence += 1;
    const quantity = Number(form.quantity);
    const order: KiteOrderRow & { account: string } = {
      account,
      order_id: `2607${String(this.sequence).padStart(11, "0")}`,
      exchange_order_id: null,
      placed_by: account,
      variety: "regular",
      status: "OPEN",
      status_message: null,
      tradingsymbol: form.tradingsymbol ?? "",
      exchange: form.exchange ?? "",
      transaction_type: form.transaction_type === "SELL" ? "SELL" : "BUY",
      order_type: form.order_type ?? "",
      product: form.product ?? "",
      validity: form.validity ?? "DAY",
      quantity,
      price: Number(form.price ?? 0),
      trigger_price: 0,
      average_price: 0,
      filled_quantity: 0,
      pending_quantity: quantity,
      cancelled_quantity: 0,
      market_protection: Number(form.market_protection ?? 0),
      tag: form.tag ?? null,
      tags: form.tag ? [form.tag] : [],
      order_timestamp: kiteTime(now),
      exchange_timestamp: null,
    };
    this.orders.set(order.order_id, order);
    if (fault && typeof fault === "object" && "reject" in fault)
      this.reject(order.order_id, fault.reject);
    else this.applyPolicy(order);
    if (fault !== "lost") success(res, { order_id: order.order_id });
  }

  private applyPolicy(order: KiteOrderRow): void {
    const fate = this.policy(order);
    if (fate === "fill") this.fill(order.order_id);
    else if (typeof fate === "number") this.fill(order.order_id, fate);
    else if (typeof fate === "object") this.reject(order.order_id, fate.reject);
    else this.onUpdate(order);
  }
}

function strip({ account: _a, ...order }: KiteOrderRow & { account: string }): KiteOrderRow {
  return { ...order, tags: [...order.tags] };
}

/** Kite's timestamps: "2026-01-05 09:15:02" in IST. */
function kiteTime(at: number): string {
  return new Date(at + 5.5 * 3600_000).toISOString().slice(0, 19).replace("T", " ");
}

function readForm(req: IncomingMessage, then: (form: Record<string, string>) => void): void {
  let body = "";
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => then(Object.fromEntries(new URLSearchParams(body))));
}

function success(res: ServerResponse, data: unknown): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ status: "success", data }));
}

function error(res: ServerResponse, status: number, errorType: string, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ status: "error", error_type: errorType, message }));
}
