import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FUTURES } from "@spreadwatch/core";
import { type WebSocket, WebSocketServer } from "ws";
import type { KiteSettings } from "../../src/config/index.ts";
import { KiteOrderBook } from "./fake-kite-orders.ts";
import { GOLD_FEB } from "./kite-packets.ts";

export const KITE_KEY = "kite-test-key";
export const KITE_SECRET = "kite-test-secret";

/** One order of a POST /margins/basket or /charges/orders body, as the client sent it. */
export type KiteOrderBody = Record<string, unknown>;

/** A recorded JSON POST: its query, content type, authorization and the orders it carried. */
export interface KiteJsonRequest {
  query: Record<string, string>;
  contentType: string | undefined;
  authorization: string | undefined;
  orders: KiteOrderBody[];
}

/** Zerodha-like charges per order (Kite computes its own; these make the fake's figures realistic). */
export interface FakeChargeRates {
  /** ₹ per executed order, capped at `brokerageCapRate` of turnover. */
  brokeragePerOrder: number;
  brokerageCapRate: number;
  cttSellRate: number;
  exchangePerCrore: number;
  sebiPerCrore: number;
  stampBuyRate: number;
  gstRate: number;
}

export interface TickerConnection {
  socket: WebSocket;
  accessToken: string;
  /** The handshake's request headers (X-Kite-Version among them). */
  headers: IncomingMessage["headers"];
  /** JSON messages the client sent (subscribe, mode, unsubscribe). */
  messages: Array<{ a: string; v: unknown }>;
}

/**
 * Kite Connect on loopback: the instruments dump and the session exchange over HTTP, the binary
 * ticker over a WebSocket on the same port. Tests drive what the ticker sends.
 */
export class FakeKite {
  readonly instruments = new Map<string, string>();
  /** request_token → access_token the exchange hands out. */
  readonly requestTokens = new Map<string, string>();
  readonly validTokens = new Set<string>();
  /** request_token → the Kite user id its login belongs to (a trader's own account); AB1234 otherwise. */
  readonly requestUsers = new Map<string, string>();
  readonly connections: TickerConnection[] = [];
  readonly requests: string[] = [];
  readonly exchanges: Array<Record<string, string>> = [];
  /** The next instruments downloads fail with these statuses, or never answer ("hang"). */
  readonly failNextInstruments: Array<number | "hang"> = [];
  /** The session exchange never answers (Kite down behind a load balancer that holds the line). */
  hangSessionToken = false;
  /** Kite heartbeats within a second of connecting; a test of silence turns this off. */
  heartbeatOnConnect = true;
  /** Every POST /margins/basket, in order. */
  readonly marginRequests: KiteJsonRequest[] = [];
  /** Every POST /charges/orders, in order. */
  readonly chargeRequests: KiteJsonRequest[] = [];
  /** The next basket margin calls fail with these statuses, or never answer ("hang"). */
  readonly failNextMargins: Array<number | "hang"> = [];
  /** The next charges calls fail with these statuses, or never answer ("hang"). */
  readonly failNextCharges: Array<number | "hang"> = [];
  /** Quote units per lot by tradingsymbol; absent: the shipped catalogue's lot of its root (GOLD26FEBFUT → 100). */
  readonly lotUnits = new Map<string, number>();
  /** Share of an order's value the basket's `initial` asks for (SPAN + exposure, roughly). */
  marginRate = 0.1;
  /**
   * Share of the larger side's margin the basket's `final` keeps when it holds both a BUY and a
   * SELL (Kite's spread benefit on a calendar); a basket of one side keeps its `initial`.
   */
  spreadKeeps = 0.3;
  /** Replaces the basket's `data` (a test of an answer lacking what the client needs). */
  marginData: unknown;
  /** Replaces the contract note's `data`, likewise. */
  chargesData: unknown;
  readonly chargeRates: FakeChargeRates = {
    brokeragePerOrder: 20,
    brokerageCapRate: 0.0003,
    cttSellRate: 0.0001,
    exchangePerCrore: 210,
    sebiPerCrore: 10,
    stampBuyRate: 0.00002,
    gstRate: 0.18,
  };
  /** The order API (orders, trades), per trader's own session. */
  readonly book = new KiteOrderBook();
  /**
   * Historical minute candles (GET /instruments/historical/:token/minute): token → the price
   * path its bars follow; a token without one is answered with no candles.
   */
  readonly historical = new Map<number, (minute: number) => number>();
  /** Every historical request in order: token, from and to as sent, and the answer's status. */
  readonly historicalRequests: Array<{ token: number; from: string; to: string; status: number }> =
    [];
  /** The next historical requests fail with these statuses, never answer ("hang"), or answer
   * the first half of the candles and then cut the connection ("half"). */
  readonly failNextHistorical: Array<number | "hang" | "half"> = [];
  /** Kite's limit on the historical API: more requests than this in a second get a 429. */
  historicalPerSecond = 3;
  private historicalStarts: number[] = [];
  private server: Server | undefined;
  private wss: WebSocketServer | undefined;
  private readonly waiters: Array<() => void> = [];
  url = "";
  wsUrl = "";

  /** The environment that points the server (the production start too) at this fake. */
  env(): Record<string, string> {
    return {
      KITE_API_KEY: KITE_KEY,
      KITE_API_SECRET: KITE_SECRET,
      KITE_API_ROOT: this.url,
      KITE_WS_ROOT: this.wsUrl,
      KITE_LOGIN_URL: `${this.url}/connect/login`,
    };
  }

  /** The app's Kite settings pointed at this fake. */
  settings(): KiteSettings {
    return {
      apiKey: KITE_KEY,
      apiSecret: KITE_SECRET,
      apiRoot: this.url,
      wsRoot: this.wsUrl,
      loginUrl: `${this.url}/connect/login`,
    };
  }

  /** Whether order changes go out on the ticker as Kite's order updates (a test of missing ones turns it off). */
  orderUpdates = true;

  async start(): Promise<this> {
    this.book.onUpdate = (order) => {
      if (!this.orderUpdates) return;
      const account = (order as { account?: string }).account;
      const { account: _a, ...data } = order as typeof order & { account?: string };
      for (const connection of this.connections)
        if (
          connection.socket.readyState === 1 &&
          this.book.accounts.get(connection.accessToken) === account
        )
          connection.socket.send(JSON.stringify({ type: "order", id: "", data }));
    };
    this.server = createServer((req, res) => this.http(req, res));
    this.wss = new WebSocketServer({
      server: this.server,
      verifyClient: (info, done) => {
        if (info.req.headers["x-kite-version"] !== "3") return done(false, 400, "Bad Request");
        const token = new URL(info.req.url ?? "/", "http://x").searchParams.get("access_token");
        if (token && this.validTokens.has(token)) done(true);
        else done(false, 403, "Forbidden");
      },
    });
    this.wss.on("connection", (socket, req) => {
      const token = new URL(req.url ?? "/", "http://x").searchParams.get("access_token") ?? "";
      const connection: TickerConnection = {
        socket,
        accessToken: token,
        headers: req.headers,
        messages: [],
      };
      this.connections.push(connection);
      if (this.heartbeatOnConnect) socket.send(Buffer.from([0x00]), { binary: true });
      socket.on("message", (data) => {
        connection.messages.push(JSON.parse(data.toString()));
        this.wake();
      });
      this.wake();
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    const port = (this.server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${port}`;
    this.wsUrl = `ws://127.0.0.1:${port}/`;
    return this;
  }

  async stop(): Promise<void> {
    for (const client of this.wss?.clients ?? []) client.terminate();
    await new Promise<void>((resolve) => this.wss?.close(() => resolve()));
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  get latest(): TickerConnection | undefined {
    return this.connections.at(-1);
  }

  /** Sends a binary frame to every open ticker connection. */
  send(frame: Buffer): void {
    for (const client of this.wss?.clients ?? []) client.send(frame, { binary: true });
  }

  sendText(text: string): void {
    for (const client of this.wss?.clients ?? []) client.send(text);
  }

  /** Cuts every ticker connection as a network failure would. */
  drop(): void {
    for (const client of this.wss?.clients ?? []) client.terminate();
  }

  /** Resolves once `check` holds, re-checked whenever something arrives. */
  async until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`fake Kite: timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 20);
      });
    }
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  private http(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://x");
    this.requests.push(`${req.method} ${url.pathname}`);
    if (this.book.handle(req, res, url)) return void this.wake();
    const historical = /^\/instruments\/historical\/(\d+)\/(\w+)$/.exec(url.pathname);
    if (req.method === "GET" && historical)
      return this.historicalCandles(req, res, url, Number(historical[1]), historical[2] ?? "");
    const instruments = /^\/instruments\/(\w+)$/.exec(url.pathname);
    if (req.method === "GET" && instruments) {
      const failure = this.failNextInstruments.shift();
      if (failure === "hang") return;
      if (failure !== undefined) return this.json(res, failure, { status: "error" });
      const token = /^token [^:]+:(.+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (req.headers["x-kite-version"] !== "3" || !token || !this.validTokens.has(token))
        return this.json(res, 403, {
          status: "error",
          message: "Incorrect `api_key` or `access_token`.",
          error_type: "TokenException",
        });
      res.writeHead(200, { "content-type": "text/csv" });
      return void res.end(this.instruments.get(instruments[1] ?? "") ?? HEADER);
    }
    if (req.method === "POST" && url.pathname === "/margins/basket")
      return this.jsonPost(req, res, url, this.marginRequests, this.failNextMargins, (orders) =>
        this.marginData === undefined ? this.basketMargins(orders) : this.marginData,
      );
    if (req.method === "POST" && url.pathname === "/charges/orders")
      return this.jsonPost(req, res, url, this.chargeRequests, this.failNextCharges, (orders) =>
        this.chargesData === undefined
          ? orders.map((order) => this.contractNote(order))
          : this.chargesData,
      );
    if (req.method === "POST" && url.pathname === "/session/token") {
      if (this.hangSessionToken) return;
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        this.exchanges.push(form);
        const requestToken = form.request_token ?? "";
        const expected = createHash("sha256")
          .update(KITE_KEY + requestToken + KITE_SECRET)
          .digest("hex");
        const access = this.requestTokens.get(requestToken);
        if (form.api_key !== KITE_KEY || form.checksum !== expected || !access)
          return this.json(res, 403, {
            status: "error",
            message: "Token is invalid or has expired.",
            error_type: "TokenException",
          });
        this.validTokens.add(access);
        const userId = this.requestUsers.get(requestToken) ?? "AB1234";
        this.book.addAccount(access, userId);
        this.json(res, 200, {
          status: "success",
          data: {
            user_id: userId,
            access_token: access,
            public_token: "pub",
            login_time: "2026-01-05 09:00:00",
          },
        });
      });
      return;
    }
    this.json(res, 404, { status: "error", message: "Route not found" });
  }

  /**
   * Kite's historical candles as Kite answers them: `from`/`to` in IST "yyyy-mm-dd hh:mm:ss",
   * both ends included, at most 60 days of minutes a request, rows `[ts, o, h, l, c, v]` stamped
   * "2026-11-27T09:15:00+0530", only in MCX hours (09:00–23:30 IST, Monday to Friday). More
   * than `historicalPerSecond` requests in a second are refused with a 429, as Kite does.
   */
  private historicalCandles(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    token: number,
    interval: string,
  ): void {
    const from = url.searchParams.get("from") ?? "";
    const to = url.searchParams.get("to") ?? "";
    const record = (status: number) => {
      this.historicalRequests.push({ token, from, to, status });
      this.wake();
    };
    const now = Date.now();
    this.historicalStarts = this.historicalStarts.filter((t) => t > now - 1000);
    this.historicalStarts.push(now);
    if (this.historicalStarts.length > this.historicalPerSecond) {
      record(429);
      return void this.json(res, 429, {
        status: "error",
        message: "Too many requests",
        error_type: "NetworkException",
      });
    }
    const tokenOk = /^token [^:]+:(.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (req.headers["x-kite-version"] !== "3" || !tokenOk || !this.validTokens.has(tokenOk)) {
      record(403);
      return void this.json(res, 403, {
        status: "error",
        message: "Incorrect `api_key` or `access_token`.",
        error_type: "TokenException",
      });
    }
    const start = istToEpoch(from);
    const end = istToEpoch(to);
    if (interval !== "minute" || start === undefined || end === undefined || end < start) {
      record(400);
      return void this.json(res, 400, {
        status: "error",
        message: "invalid from/to or interval",
        error_type: "InputException",
      });
    }
    if (end - start > 60 * 86_400_000) {
      record(400);
      return void this.json(res, 400, {
        status: "error",
        message: "interval exceeds max limit: 60 days",
        error_type: "InputException",
      });
    }
    const failure = this.failNextHistorical.shift();
    if (failure === "hang") return void record(0);
    if (typeof failure === "number") {
      record(failure);
      return void this.json(res, failure, {
        status: "error",
        message: "Something went wrong",
        error_type: "GeneralException",
      });
    }
    const path = this.historical.get(token);
    const candles: unknown[] = [];
    for (let t = Math.ceil(start / 60_000) * 60_000; path && t <= end; t += 60_000) {
      if (!mcxOpen(t)) continue;
      const [o, c] = [path(t), path(t + 59_000)];
      const round = (v: number) => Math.round(v * 100) / 100;
      candles.push([
        istStamp(t),
        round(o),
        round(Math.max(o, c) + 1),
        round(Math.min(o, c) - 1),
        round(c),
        7,
      ]);
    }
    record(200);
    const body = JSON.stringify({ status: "success", data: { candles } });
    if (failure === "half") {
      res.writeHead(200, { "content-type": "application/json" });
      res.write(body.slice(0, Math.floor(body.length / 2)));
      return void setImmediate(() => req.socket.destroy());
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body);
  }

  /**
   * Kite's JSON POSTs (docs: kite.trade/docs/connect/v3/margins): X-Kite-Version 3, `token
   * api_key:access_token`, Content-Type application/json and an array of orders; the request is
   * recorded before any failure a test queued, so a test sees what a failed call carried.
   */
  private jsonPost(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    log: KiteJsonRequest[],
    failures: Array<number | "hang">,
    answer: (orders: KiteOrderBody[]) => unknown,
  ): void {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      let orders: unknown;
      try {
        orders = JSON.parse(body);
      } catch {
        orders = undefined;
      }
      log.push({
        query: Object.fromEntries(url.searchParams),
        contentType: req.headers["content-type"],
        authorization: req.headers.authorization,
        orders: Array.isArray(orders) ? orders : [],
      });
      this.wake();
      const failure = failures.shift();
      if (failure === "hang") return;
      if (failure !== undefined)
        return this.json(res, failure, {
          status: "error",
          message: "Something went wrong",
          error_type: "GeneralException",
        });
      const token = /^token [^:]+:(.+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (req.headers["x-kite-version"] !== "3" || !token || !this.validTokens.has(token))
        return this.json(res, 403, {
          status: "error",
          message: "Incorrect `api_key` or `access_token`.",
          error_type: "TokenException",
        });
      if (!req.headers["content-type"]?.startsWith("application/json") || !Array.isArray(orders))
        return this.json(res, 400, {
          status: "error",
          message: "Invalid JSON body: expected an array of orders",
          error_type: "InputException",
        });
      this.json(res, 200, { status: "success", data: answer(orders) });
    });
  }

  private orderValue(order: KiteOrderBody, priceField: "price" | "average_price"): number {
    const symbol = String(order.tradingsymbol);
    // An MCX future's tradingsymbol is its root, the year and month, FUT (GOLD26FEBFUT).
    const root = /^([A-Z]+)\d{2}[A-Z]{3}FUT$/.exec(symbol)?.[1] ?? "";
    const units = this.lotUnits.get(symbol) ?? FUTURES[root]?.lotUnits ?? 1;
    return Number(order[priceField]) * Number(order.quantity) * units;
  }

  /** The basket's answer in Kite's shape (mode=compact still carries initial, final, orders). */
  private basketMargins(orders: KiteOrderBody[]): unknown {
    const margins = orders.map((o) => this.orderValue(o, "price") * this.marginRate);
    const sideTotal = (side: string) =>
      margins.reduce((sum, m, i) => (orders[i]?.transaction_type === side ? sum + m : sum), 0);
    const buy = sideTotal("BUY");
    const sell = sideTotal("SELL");
    const initial = buy + sell;
    const final = buy > 0 && sell > 0 ? Math.max(buy, sell) * this.spreadKeeps : initial;
    const block = (total: number, tradingsymbol = "", exchange = "", type = "") => ({
      type,
      tradingsymbol,
      exchange,
      span: total * 0.7,
      exposure: total * 0.3,
      option_premium: 0,
      additional: 0,
      bo: 0,
      cash: 0,
      var: 0,
      pnl: { realised: 0, unrealised: 0 },
      leverage: 0,
      charges: {
        transaction_tax: 0,
        transaction_tax_type: "",
        exchange_turnover_charge: 0,
        sebi_turnover_charge: 0,
        brokerage: 0,
        stamp_duty: 0,
        gst: { igst: 0, cgst: 0, sgst: 0, total: 0 },
        total: 0,
      },
      total,
    });
    return {
      initial: block(initial),
      final: block(final),
      orders: orders.map((o, i) =>
        block(margins[i] ?? 0, String(o.tradingsymbol), String(o.exchange), "commodity"),
      ),
    };
  }

  /** One order's virtual contract note in Kite's shape, charged at `chargeRates`. */
  private contractNote(order: KiteOrderBody): unknown {
    const r = this.chargeRates;
    const turnover = Math.abs(this.orderValue(order, "average_price"));
    const sell = order.transaction_type === "SELL";
    const brokerage = Math.min(r.brokeragePerOrder, turnover * r.brokerageCapRate);
    const exchange = (turnover * r.exchangePerCrore) / 1e7;
    const sebi = (turnover * r.sebiPerCrore) / 1e7;
    const tax = sell ? turnover * r.cttSellRate : 0;
    const stamp = sell ? 0 : turnover * r.stampBuyRate;
    const gst = (brokerage + exchange + sebi) * r.gstRate;
    return {
      transaction_type: order.transaction_type,
      tradingsymbol: order.tradingsymbol,
      exchange: order.exchange,
      variety: order.variety,
      product: order.product,
      order_type: order.order_type,
      quantity: order.quantity,
      price: order.average_price,
      charges: {
        transaction_tax: tax,
        transaction_tax_type: "ctt",
        exchange_turnover_charge: exchange,
        sebi_turnover_charge: sebi,
        brokerage,
        stamp_duty: stamp,
        gst: { igst: gst, cgst: 0, sgst: 0, total: gst },
        total: brokerage + exchange + sebi + tax + stamp + gst,
      },
    };
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }
}

const IST_MS = 330 * 60_000;

/** Kite's "yyyy-mm-dd hh:mm:ss" (IST) as epoch ms. */
function istToEpoch(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s) - IST_MS;
}

/** A candle's stamp as Kite writes it: IST with a colon-less offset. */
function istStamp(at: number): string {
  return `${new Date(at + IST_MS).toISOString().slice(0, 19)}+0530`;
}

/** MCX trades 09:00–23:30 IST, Monday to Friday. */
export function mcxOpen(at: number): boolean {
  const local = new Date(at + IST_MS);
  const day = local.getUTCDay();
  const minutes = local.getUTCHours() * 60 + local.getUTCMinutes();
  return day !== 0 && day !== 6 && minutes >= 9 * 60 && minutes < 23 * 60 + 30;
}

const HEADER =
  "instrument_token,exchange_token,tradingsymbol,name,last_price,expiry,strike,tick_size,lot_size,instrument_type,segment,exchange";

/** One row of the instruments dump, with Kite's column order. */
export function instrumentRow(r: {
  token: number;
  tradingsymbol: string;
  name: string;
  expiry?: string;
  type?: string;
  segment: string;
  exchange: string;
}): string {
  return [
    r.token,
    r.token >> 8,
    r.tradingsymbol,
    r.name.includes(" ") ? `"${r.name}"` : r.name,
    0,
    r.expiry ?? "",
    0,
    0.05,
    1,
    r.type ?? "FUT",
    r.segment,
    r.exchange,
  ].join(",");
}

/** One MCX future's row of Kite's instruments list. */
export function mcxFuture(
  token: number,
  tradingsymbol: string,
  name: string,
  expiry: string,
): string {
  return instrumentRow({ token, tradingsymbol, name, expiry, segment: "MCX-FUT", exchange: "MCX" });
}

export function instrumentsCsv(rows: string[]): string {
  return `${HEADER}\n${rows.join("\n")}\n`;
}

/** Kite's MCX instruments list holding one GOLD future, GOLD99DECFUT (token GOLD_FEB). */
export function listGoldFuture(kite: FakeKite): void {
  kite.instruments.set(
    "MCX",
    instrumentsCsv([
      instrumentRow({
        token: GOLD_FEB,
        tradingsymbol: "GOLD99DECFUT",
        name: "GOLD",
        expiry: "2099-12-05",
        segment: "MCX-FUT",
        exchange: "MCX",
      }),
    ]),
  );
}

/** Kite accepts the day's login: request token "req-good" trades for "access-of-the-day". */
export function acceptLoginOfTheDay(kite: FakeKite): void {
  kite.requestTokens.set("req-good", "access-of-the-day");
  kite.validTokens.add("access-of-the-day");
}
