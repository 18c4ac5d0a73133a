import type { IncomingMessage, ServerResponse } from "node:http";
import type { MarketHub } from "./hub.ts";

interface Client {
  res: ServerResponse;
  /** Hub version of the last snapshot this client was sent. */
  sentVersion: number;
  lastSentAt: number;
  /** The socket's buffer is full: skip it until it drains, then send only the latest state. */
  blocked: boolean;
}

export interface BroadcasterOptions {
  /** At most one message per client per this many ms (DESIGN §3: 25). */
  minIntervalMs: number;
  pingIntervalMs: number;
  /** Told to the client on connect: reconnect when nothing (not even a ping) came this long. */
  reconnectAfterInactivityMs: number;
}

/** The tRPC SSE wire format that httpSubscriptionLink reads. */
const frame = {
  connected: (options: object) => `event: connected\ndata: ${JSON.stringify(options)}\n\n`,
  data: (json: string) => `data: ${json}\n\n`,
  ping: "event: ping\ndata: \n\n",
};

/**
 * Serves `market.onSnapshot` to every browser from one serialisation per hub version. tRPC's own
 * SSE path serialises and streams per subscriber, which at 1,000 subscribers spent the whole core
 * in JSON and web streams (BENCHMARKS.md); the procedure stays the typed contract, and this
 * writes exactly the frames tRPC would. Leading edge per client: a change after a quiet spell
 * goes out at once, changes within the interval are folded into one message at its end.
 */
export class SnapshotBroadcaster {
  private readonly clients = new Set<Client>();
  private version = 0;
  private cached: { version: number; text: string } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private flushQueued = false;
  private readonly pinger: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly hub: MarketHub,
    private readonly options: BroadcasterOptions,
  ) {
    this.unsubscribe = hub.subscribe(() => {
      this.version++;
      // Feeds deliver a burst of quotes in one go (a simulator step, a socket frame): send once
      // the burst is in, still in the same turn of the event loop, not on its first quote.
      if (this.flushQueued) return;
      this.flushQueued = true;
      queueMicrotask(() => {
        this.flushQueued = false;
        this.flush();
      });
    });
    this.pinger = setInterval(() => this.ping(), options.pingIntervalMs);
    this.pinger.unref();
  }

  get clientCount(): number {
    return this.clients.size;
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
      connection: "keep-alive",
    });
    res.write(
      frame.connected({ reconnectAfterInactivityMs: this.options.reconnectAfterInactivityMs }),
    );
    const client: Client = {
      res,
      sentVersion: -1,
      lastSentAt: Number.NEGATIVE_INFINITY,
      blocked: false,
    };
    this.clients.add(client);
    req.on("close", () => this.clients.delete(client));
    this.send(client, performance.now());
  }

  /** Ends every stream (the browsers reconnect to the next server) and stops listening. */
  close(): void {
    this.unsubscribe();
    clearInterval(this.pinger);
    clearTimeout(this.timer);
    for (const client of this.clients) client.res.end();
    this.clients.clear();
  }

  private currentText(): string {
    if (this.cached?.version !== this.version) {
      this.cached = {
        version: this.version,
        text: frame.data(JSON.stringify(this.hub.snapshot())),
      };
    }
    return this.cached.text;
  }

  /** Sends the latest state to every client that lacks it and may receive now; waits for the rest. */
  private flush(): void {
    const now = performance.now();
    let wait = Number.POSITIVE_INFINITY;
    for (const client of this.clients) {
      if (client.blocked || client.sentVersion === this.version) continue;
      const due = client.lastSentAt + this.options.minIntervalMs - now;
      if (due > 0) wait = Math.min(wait, due);
      else this.send(client, now);
    }
    if (wait !== Number.POSITIVE_INFINITY && this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, wait);
    }
  }

  private send(client: Client, now: number): void {
    client.sentVersion = this.version;
    client.lastSentAt = now;
    if (!client.res.write(this.currentText())) {
      client.blocked = true;
      client.res.once("drain", () => {
        client.blocked = false;
        this.flush();
      });
    }
  }

  private ping(): void {
    for (const client of this.clients) if (!client.blocked) client.res.write(frame.ping);
  }
}
