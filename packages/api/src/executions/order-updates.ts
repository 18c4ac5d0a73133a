import WebSocket from "ws";
import type { KiteSettings } from "../config/index.ts";
import type { KiteOrderRow } from "./kite-orders.ts";

/**
 * Kite's order updates on the ticker WebSocket of each trader's own session (a text message
 * `{"type":"order","data":{…}}` per change; kite.trade/docs/connect/v3/websocket). They are only
 * a nudge and a shortcut: updates can come out of order or not at all and none comes on
 * placement, so the engine folds an update's order into its campaign at once (a fill never
 * shrinks, a settled order never reopens: kite-orders.ts mergeKiteRow) and acts on it without
 * waiting for the orderbook, but only the book, read at every poll, can show an order missing.
 */
const IDLE_MS = 60_000;

export class OrderUpdates {
  private readonly sockets = new Map<string, WebSocket>();
  private readonly retryAt = new Map<string, number>();
  private readonly wantedAt = new Map<string, number>();
  private closed = false;
  /** Orders as the updates told them since the engine last took them, per access token. */
  private readonly rows = new Map<string, KiteOrderRow[]>();

  constructor(
    private readonly kite: KiteSettings,
    private readonly onUpdate: () => void,
    /** Connected: updates from now on; what changed while connecting is in the orderbook. */
    private readonly onOpen: () => void = () => {},
  ) {}

  /**
   * Keeps one ticker connection per access token in `tokens`; one no longer wanted is kept for
   * a minute, so a trader's next ticket finds it open (an update missed while connecting waits
   * for the poll).
   */
  watch(tokens: ReadonlySet<string>): void {
    if (this.closed || !this.kite.apiKey) return;
    const now = Date.now();
    for (const token of tokens) this.wantedAt.set(token, now);
    for (const [token, socket] of this.sockets)
      if (now - (this.wantedAt.get(token) ?? 0) > IDLE_MS) {
        this.sockets.delete(token);
        this.wantedAt.delete(token);
        socket.terminate();
      }
    for (const token of tokens)
      if (!this.sockets.has(token) && (this.retryAt.get(token) ?? 0) <= now)
        this.connect(token, this.kite.apiKey);
  }

  /** The updates' orders since the last call, per access token; cleared. */
  take(): Map<string, KiteOrderRow[]> {
    const taken = new Map(this.rows);
    this.rows.clear();
    return taken;
  }

  close(): void {
    this.closed = true;
    for (const socket of this.sockets.values()) socket.terminate();
    this.sockets.clear();
  }

  private connect(token: string, apiKey: string): void {
    const url = new URL(this.kite.wsRoot);
    url.searchParams.set("api_key", apiKey);
    url.searchParams.set("access_token", token);
    const socket = new WebSocket(url, { headers: { "X-Kite-Version": "3" } });
    this.sockets.set(token, socket);
    socket.on("open", () => this.onOpen());
    socket.on("message", (data, binary) => {
      if (binary) return; // market ticks and heartbeats
      try {
        const message = JSON.parse(data.toString()) as { type?: string; data?: KiteOrderRow };
        if (message.type !== "order") return;
        const row = message.data;
        if (row && typeof row.order_id === "string" && typeof row.tag === "string") {
          const held = this.rows.get(token);
          if (held) held.push(row);
          else this.rows.set(token, [row]);
        }
        this.onUpdate();
      } catch {
        // Not JSON: nothing for us.
      }
    });
    const lost = () => {
      if (this.sockets.get(token) !== socket) return;
      this.sockets.delete(token);
      // The poll goes on meanwhile; connect again on a later look.
      this.retryAt.set(token, Date.now() + 5_000);
    };
    socket.on("close", lost);
    socket.on("error", lost);
  }
}
