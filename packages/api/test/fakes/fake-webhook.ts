import { createHmac, timingSafeEqual } from "node:crypto";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  /** The URL path it was POSTed to (one receiver can stand in for several users' URLs). */
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as it arrived. */
  body: string;
  /** The status this receiver answered. */
  status: number;
}

interface HeldRequest {
  req: IncomingMessage;
  res: ServerResponse;
  body: string;
}

/**
 * A webhook receiver on loopback: records every POST (headers and raw body) and answers 200,
 * or the statuses queued with `answerNext` / `answerNextAt` (one each, in order). `hold(path)`
 * makes it a hanging receiver for that path: requests arrive (`arrived`) but get no answer
 * until `release(path)`, or until the sender gives up on them.
 */
export class FakeWebhook {
  /** Every POST answered, in the order answered. */
  readonly received: ReceivedWebhook[] = [];
  /** Every POST as its body arrived, answered or held, in the order of arrival. */
  readonly arrived: Omit<ReceivedWebhook, "status">[] = [];
  /** POSTs the sender hung up on before they were answered (timed out or aborted). */
  readonly hungUp: Omit<ReceivedWebhook, "status">[] = [];
  private readonly answers: number[] = [];
  private readonly answersAt = new Map<string, number[]>();
  private readonly held = new Map<string, HeldRequest[]>();
  private server: Server | undefined;
  url = "";
  private origin = "";

  async start(path = "/hook"): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const request = { req, res, body: Buffer.concat(chunks).toString() };
        const path = req.url ?? "";
        const arrival = { path, headers: req.headers, body: request.body };
        this.arrived.push(arrival);
        res.once("close", () => {
          if (!res.writableEnded) this.hungUp.push(arrival);
        });
        const waiting = this.held.get(path);
        if (waiting) waiting.push(request);
        else this.answer(request);
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.url = this.urlFor(path);
    return this;
  }

  /** Another URL on this receiver, e.g. one per user. */
  urlFor(path: string): string {
    return `${this.origin}${path}`;
  }

  answerNext(...statuses: number[]): void {
    this.answers.push(...statuses);
  }

  /** Like answerNext, for requests to `path` only. */
  answerNextAt(path: string, ...statuses: number[]): void {
    this.answersAt.set(path, [...(this.answersAt.get(path) ?? []), ...statuses]);
  }

  /** Requests to `path` hang, unanswered, from now until `release(path)`. */
  hold(path: string): void {
    if (!this.held.has(path)) this.held.set(path, []);
  }

  /** Answers the requests `hold` kept waiting (those the sender has not hung up on). */
  release(path: string): void {
    const waiting = this.held.get(path) ?? [];
    this.held.delete(path);
    for (const request of waiting) {
      if (!request.req.socket.destroyed) this.answer(request);
    }
  }

  private answer({ req, res, body }: HeldRequest): void {
    const path = req.url ?? "";
    const status = this.answersAt.get(path)?.shift() ?? this.answers.shift() ?? 200;
    this.received.push({ path, headers: req.headers, body, status });
    res.writeHead(status, { "content-type": "text/plain" });
    res.end(status < 300 ? "ok" : "nope");
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => this.server?.close(() => resolve()));
  }
}

/** What a receiver does: recompute the HMAC of the raw body and compare in constant time. */
export function signatureVerifies(secret: string, received: ReceivedWebhook): boolean {
  const header = String(received.headers["x-spreadwatch-signature"] ?? "");
  const expected = `sha256=${createHmac("sha256", secret).update(received.body).digest("hex")}`;
  return (
    header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected))
  );
}
