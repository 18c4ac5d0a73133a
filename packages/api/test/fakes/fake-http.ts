import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * An answer: a status with a JSON (or raw text) body, "drop" to cut the connection, or "hang"
 * to never answer (until the fake stops).
 */
export type Reply =
  | { status?: number; json?: unknown; text?: string; headers?: Record<string, string> }
  | "drop"
  | "hang";

export interface SeenRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
}

/**
 * A JSON HTTP server on loopback for provider tests: a handler per path, replies queued ahead of
 * it with `failNext`, and every request recorded.
 */
export class FakeHttp {
  readonly requests: SeenRequest[] = [];
  private readonly routes = new Map<string, (request: SeenRequest) => Reply>();
  private readonly queued = new Map<string, Reply[]>();
  private server: Server | undefined;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      const request = { path: url.pathname, query: url.searchParams, headers: req.headers };
      this.requests.push(request);
      const reply = this.queued.get(url.pathname)?.shift() ??
        (this.routes.get(url.pathname) ?? this.prefixRoute(url.pathname))?.(request) ?? {
          status: 404,
          json: { error: "not found" },
        };
      if (reply === "drop") return req.socket.destroy();
      if (reply === "hang") return;
      const text = reply.text ?? JSON.stringify(reply.json ?? null);
      res.writeHead(reply.status ?? 200, {
        "content-type": reply.text !== undefined ? "text/plain" : "application/json",
        ...reply.headers,
      });
      res.end(text);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  route(path: string, handler: (request: SeenRequest) => Reply): this {
    this.routes.set(path, handler);
    return this;
  }

  /** A route registered as "/a/b/*" answers every path under /a/b/. */
  private prefixRoute(path: string): ((request: SeenRequest) => Reply) | undefined {
    for (const [route, handler] of this.routes)
      if (route.endsWith("/*") && path.startsWith(route.slice(0, -1))) return handler;
    return undefined;
  }

  /** The next requests to `path` get these replies, in order, before its handler answers again. */
  failNext(path: string, ...replies: Reply[]): void {
    this.queued.set(path, [...(this.queued.get(path) ?? []), ...replies]);
  }

  count(path: string): number {
    return this.requests.filter((r) => r.path === path).length;
  }
}
