import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedMessage {
  token: string;
  chatId: string;
  text: string;
}

type Fault =
  | { kind: "ok" }
  | { kind: "rate-limit"; retryAfter: number }
  | { kind: "server-error" }
  | { kind: "drop-connection" }
  /** Delivers the message but never answers: the sender cannot know it arrived. */
  | { kind: "lost-reply" };

/**
 * A Telegram Bot API stand-in on loopback: answers sendMessage like Telegram does, records what
 * it accepted, and can be told to answer 429 with retry_after, fail with 5xx, drop the
 * connection, deliver without answering, refuse a chat the way Telegram refuses an unknown
 * chat, or go down (hang every request, or refuse connections).
 */
export class FakeTelegram {
  readonly received: ReceivedMessage[] = [];
  /** Every sendMessage request, including the ones answered with a fault. */
  attempts = 0;
  /** Requests held open without an answer (hanging, or delivered with the reply lost). */
  unanswered = 0;
  private hanging = false;
  private readonly faults: Fault[] = [];
  private readonly unknownChats = new Set<string>();
  private readonly waiters: Array<() => void> = [];
  private server: Server | undefined;
  apiRoot = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req).then(
        ({ status, body }) => {
          if (status === 0) return req.socket.destroy();
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(body));
        },
        () => res.destroy(),
      );
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.apiRoot = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Safe after `refuseConnections`. */
  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => this.server?.close(() => resolve()));
  }

  /** Telegram hangs: every request is accepted, counted and never answered. */
  hang(): void {
    this.hanging = true;
  }

  /** Telegram is gone: the port refuses connections (kept-alive ones are cut too). */
  refuseConnections(): void {
    this.server?.close();
    this.server?.closeAllConnections();
  }

  /** The next requests get these faults, in order. */
  failNext(...faults: Fault[]): void {
    this.faults.push(...faults);
  }

  refuseChat(chatId: string): void {
    this.unknownChats.add(chatId);
  }

  /**
   * Resolves the moment `count` messages were accepted (the benchmark times it), and rejects
   * after `timeoutMs` so a lost message fails instead of hanging.
   */
  async waitFor(count: number, timeoutMs = 30_000): Promise<ReceivedMessage[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${count} Telegram messages`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received;
  }

  textsTo(chatId: string): string[] {
    return this.received.filter((m) => m.chatId === chatId).map((m) => m.text);
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    if (this.hanging) {
      this.attempts++;
      return this.never();
    }
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const [, token, method] = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? "") ?? [];
    if (token === undefined || method !== "sendMessage") {
      return { status: 404, body: { ok: false, error_code: 404, description: "Not Found" } };
    }
    this.attempts++;
    const fault = this.faults.shift();
    if (fault?.kind === "drop-connection") return { status: 0, body: null };
    if (fault?.kind === "server-error") {
      return { status: 502, body: { ok: false, error_code: 502, description: "Bad Gateway" } };
    }
    if (fault?.kind === "rate-limit") {
      return {
        status: 429,
        body: {
          ok: false,
          error_code: 429,
          description: `Too Many Requests: retry after ${fault.retryAfter}`,
          parameters: { retry_after: fault.retryAfter },
        },
      };
    }
    const payload = JSON.parse(raw || "{}") as { chat_id?: string | number; text?: string };
    const chatId = String(payload.chat_id ?? "");
    if (this.unknownChats.has(chatId)) {
      return {
        status: 400,
        body: { ok: false, error_code: 400, description: "Bad Request: chat not found" },
      };
    }
    this.received.push({ token, chatId, text: payload.text ?? "" });
    for (const wake of this.waiters.splice(0)) wake();
    if (fault?.kind === "lost-reply") return this.never();
    return {
      status: 200,
      body: {
        ok: true,
        result: {
          message_id: this.received.length,
          date: Math.floor(Date.now() / 1000),
          chat: { id: Number(chatId), type: "private" },
          text: payload.text,
        },
      },
    };
  }

  /** An answer that never comes; the connection stays open until `stop`. */
  private never(): Promise<never> {
    this.unanswered++;
    return new Promise(() => {});
  }
}
