import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { constants, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openPausedStream } from "../../test/fakes/paused-stream.ts";
import { applyMessage, dataEvents } from "../../test/stream-state.ts";
import { loadConfig } from "../config/index.ts";
import { MarketHub, type MarketSnapshot } from "../market/hub.ts";
import { dutiesFrom } from "../server.ts";
import type { MarketStreamMessage } from "./delta.ts";
import { SnapshotBroadcaster } from "./snapshot-broadcaster.ts";

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step();
});

/**
 * The broadcaster on a bare node:http server, as the app mounts it. Each stream's socket is
 * watched: `queuedBehind` counts the writes of bytes made to it while bytes of an earlier one
 * still waited in Node, `busy` the writes the kernel did not take at once.
 */
async function serve() {
  const hub = new MarketHub(dutiesFrom(loadConfig({ DATA_DIR: "/nonexistent" })));
  const broadcaster = new SnapshotBroadcaster(hub, {
    minIntervalMs: 25,
    pingIntervalMs: 60_000,
    reconnectAfterInactivityMs: 120_000,
    limitPerAddress: 0,
    trustedProxies: 0,
    blockedDropAfterMs: 120_000,
  });
  // As the composition root wires it (composition.ts).
  hub.subscribe((update) => broadcaster.onUpdate(update));
  const watch = { queuedBehind: 0, busy: 0 };
  const server: Server = createServer((req, res) => {
    const socket = req.socket as Socket & { write: Socket["write"] };
    const write = socket.write;
    socket.write = function (this: Socket, ...args: Parameters<Socket["write"]>) {
      // An empty write carries no frame: the broadcaster queues one only for its callback.
      const frame = (args[0] as { length: number }).length > 0;
      if (frame && this.writableLength > 0) watch.queuedBehind++;
      const result = write.apply(this, args);
      if (this.writableLength > 0) watch.busy++;
      return result;
    } as Socket["write"];
    broadcaster.handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(() => {
    broadcaster.close();
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  return { hub, watch, url: `http://127.0.0.1:${port}/api/trpc/market.onSnapshot` };
}

/** Moves the gold books and USDINR (long prices: frames of a few hundred bytes) to tick `n`. */
function tick(hub: MarketHub, n: number) {
  hub.ingest({ source: "cme", key: "GC", bid: 2650 + n / 100, ask: 2651 + n / 100, ts: n });
  hub.ingest({ source: "mcx", key: "GOLD", bid: 72_100 + n, ask: 72_120 + n, ts: n });
  hub.ingest({ source: "fx", key: "USDINR", price: 84 + n / 1e6, ts: n });
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** The SSE messages in a raw HTTP/1.1 response: chunked framing removed, gzip decoded. */
function messages(raw: Buffer): MarketStreamMessage[] {
  const headEnd = raw.indexOf("\r\n\r\n");
  const head = raw.subarray(0, headEnd).toString();
  const parts: Buffer[] = [];
  let at = headEnd + 4;
  for (;;) {
    const lineEnd = raw.indexOf("\r\n", at);
    if (lineEnd === -1) break;
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString(), 16);
    if (!(size > 0) || lineEnd + 2 + size > raw.length) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  let body = Buffer.concat(parts);
  if (/content-encoding: gzip/i.test(head))
    body = gunzipSync(body, { finishFlush: constants.Z_SYNC_FLUSH });
  return dataEvents(body.toString()).map((json) => JSON.parse(json) as MarketStreamMessage);
}

describe.each([
  ["plain", {}],
  ["gzip", { "accept-encoding": "gzip" }],
])("a %s stream client that stops reading", (_, headers) => {
  it("is sent no frame behind one it has not taken, and catches up on the latest state once it reads", async () => {
    const { hub, watch, url } = await serve();
    let n = 1;
    tick(hub, n);
    const client = await openPausedStream(url, headers);
    cleanup.push(() => client.destroy());
    // The opening (headers, the connected event, the snapshot) is written by node:http, corked
    // in pieces; from here on every write is the broadcaster's.
    watch.queuedBehind = 0;
    watch.busy = 0;
    // New versions, one per turn of the loop, until the kernel's buffers for the paused client
    // are full (a write it did not take at once) and for as many versions again after that.
    let after = 0;
    // The version whose write the kernel first did not take: each one before it went out as a
    // frame of its own, however many the machine's load let through before the buffers filled.
    let firstHeld = 0;
    await vi.waitFor(
      async () => {
        tick(hub, ++n);
        await turn();
        if (watch.busy > 0) {
          firstHeld ||= n;
          after++;
        }
        expect(after).toBeGreaterThan(200);
      },
      { timeout: 30_000, interval: 0 },
    );
    // With frames queued in Node behind the unread one, this counts every version since.
    expect(watch.queuedBehind).toBe(0);
    // No quote after this: what brings the client up to date must come when it reads again.
    // As the wire carries it (entries hold their per-lot figures behind a getter).
    const latest = JSON.parse(JSON.stringify(hub.snapshot()));
    client.resume();
    await vi.waitFor(
      () => {
        const received = messages(client.receivedBytes());
        expect(received.reduce<MarketSnapshot | undefined>(applyMessage, undefined)).toEqual(
          latest,
        );
      },
      { timeout: 20_000 },
    );
    // The versions it missed came merged: past the ones sent before the buffers filled, far
    // fewer messages than versions.
    const missed = n - firstHeld;
    expect(messages(client.receivedBytes()).length - firstHeld).toBeLessThan(missed / 2);
  }, 60_000);
});
