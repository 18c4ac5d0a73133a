import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as it arrived. */
  body: string;
  /** The status this receiver answered. */
  status: number;
}

/**
 * A webhook receiver on loopback: records every POST (headers and raw body) and answers 200,
 * or the statuses queued with `answerNext` (one each, in order).
 */
export class FakeWebhook {
  readonly received: ReceivedWebhook[] = [];
  private readonly answers: number[] = [];
  private server: Server | undefined;
  url = "";

  async start(path = "/hook"): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const status = this.answers.shift() ?? 200;
        this.received.push({
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
          status,
        });
        res.writeHead(status, { "content-type": "text/plain" });
        res.end(status < 300 ? "ok" : "nope");
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
    return this;
  }

  answerNext(...statuses: number[]): void {
    this.answers.push(...statuses);
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
