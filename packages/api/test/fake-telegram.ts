import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedMessage {
  token: string;
  chatId: string;
  text: string;
}

type Fault =
  | { kind: "rate-limit"; retryAfter: number }
  | { kind: "server-error" }
  | { kind: "drop-connection" };

/**
 * A Telegram Bot API stand-in on loopback: answers sendMessage like Telegram does, records what
 * it accepted, and can be told to answer 429 with retry_after, fail with 5xx, drop the
 * connection, or refuse a chat the way Telegram refuses an unknown chat.
 */
export class FakeTelegram {
  readonly received: ReceivedMessage[] = [];
  /** Every sendMessage request, including the ones answered with a fault. */
  attempts = 0;
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

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => this.server?.close(() => resolve()));
  }

  /** The next requests get these faults, in order. */
  failNext(...faults: Fault[]): void {
    this.faults.push(...faults);
  }

  refuseChat(chatId: string): void {
    this.unknownChats.add(chatId);
  }

  /** Resolves once `count` messages were accepted. */
  async waitFor(count: number): Promise<ReceivedMessage[]> {
    while (this.received.length < count)
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.received;
  }

  textsTo(chatId: string): string[] {
    return this.received.filter((m) => m.chatId === chatId).map((m) => m.text);
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
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
}
