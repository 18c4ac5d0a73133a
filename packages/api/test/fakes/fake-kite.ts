import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { GOLD_FEB } from "./kite-packets.ts";

export const KITE_KEY = "kite-test-key";
export const KITE_SECRET = "kite-test-secret";

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
  readonly connections: TickerConnection[] = [];
  readonly requests: string[] = [];
  readonly exchanges: Array<Record<string, string>> = [];
  /** The next instruments downloads fail with these statuses, or never answer ("hang"). */
  readonly failNextInstruments: Array<number | "hang"> = [];
  /** The session exchange never answers (Kite down behind a load balancer that holds the line). */
  hangSessionToken = false;
  /** Kite heartbeats within a second of connecting; a test of silence turns this off. */
  heartbeatOnConnect = true;
  private server: Server | undefined;
  private wss: WebSocketServer | undefined;
  private readonly waiters: Array<() => void> = [];
  url = "";
  wsUrl = "";

  async start(): Promise<this> {
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
        this.json(res, 200, {
          status: "success",
          data: {
            user_id: "AB1234",
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

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }
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
