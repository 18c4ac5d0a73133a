import WebSocket from "ws";
import type { KiteSettings } from "../config/index.ts";

/**
 * Kite's order updates on the ticker WebSocket of each trader's own session (a text message
 * `{"type":"order","data":{…}}` per change; kite.trade/docs/connect/v3/websocket). They are only
 * a nudge: updates can come out of order or not at all and none comes on placement, so on each
 * the engine reads the orderbook at once instead of at its next poll; the book stays the truth.
 */
const IDLE_MS = 60_000;

export class OrderUpdates {
  private readonly sockets = new Map<string, WebSocket>();
  private readonly retryAt = new Map<string, number>();
  private readonly wantedAt = new Map<string, number>();
  private closed = false;

  constructor(
    private readonly kite: KiteSettings,
    private readonly onUpdate: () => void,
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
    socket.on("message", (data, binary) => {
      if (binary) return; // market ticks and heartbeats
      try {
        if ((JSON.parse(data.toString()) as { type?: string }).type === "order") this.onUpdate();
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
