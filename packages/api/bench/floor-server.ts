// The floor for fanout.bench.ts: plain node:http, no framework, no coalescing, no per-client
// state. The same simulator (seed, clock) feeds a MarketHub; each burst of quotes becomes one
// delta, encoded once and written to every socket (in gzip, the same shared chain as the real
// server's, so the bytes on the wire are the same). Written the cheapest way Node has, as the real
// server does: one `socket.write` per client of a shared, ready-made HTTP chunk; the opening frames
// are made once per version. What the real server costs above this is the price of its guarantees
// (limits, blocked-client handling, merged deltas, tRPC's routing).
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { loadConfig } from "../src/config/index.ts";
import { createSimulatorFeed } from "../src/feeds/simulator/simulator.ts";
import { MarketHub } from "../src/market/hub.ts";
import { dutiesFrom } from "../src/server.ts";
import { diffSnapshots } from "../src/stream/delta.ts";
import {
  acceptsGzip,
  type ChainPosition,
  FrameChain,
  GZIP_HEADER,
  packAlone,
  packFor,
} from "../src/stream/stream-encoding.ts";
import { createPreciseClock } from "./clock.ts";
import type { ServerReply, ServerRequest } from "./sse-server.ts";

const duties = dutiesFrom(loadConfig({ DATA_DIR: "/nonexistent" }));
const hub = new MarketHub(duties);
const clients = new Set<ServerResponse & Partial<ChainPosition> & { gzip?: boolean }>();
const chain = new FrameChain();
const frame = (message: object) => Buffer.from(`data: ${JSON.stringify(message)}\n\n`);
const CRLF = Buffer.from("\r\n");
/** One HTTP/1.1 chunk of `bytes`, made once per frame and written to every socket as is. */
const chunks = new WeakMap<Buffer, Buffer>();
const chunkOf = (bytes: Buffer) => {
  let chunk = chunks.get(bytes);
  if (!chunk) {
    chunk = Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, CRLF]);
    chunks.set(bytes, chunk);
  }
  return chunk;
};

let last = hub.snapshot();
let queued = false;
hub.subscribe(() => {
  if (queued) return;
  queued = true;
  queueMicrotask(() => {
    queued = false;
    const next = hub.snapshot();
    const bytes = frame(diffSnapshots(last, next));
    last = next;
    chain.push(bytes);
    let alone: Buffer | undefined;
    const packAloneOnce = () => {
      alone ??= packAlone(bytes);
      return alone;
    };
    for (const res of clients) {
      const socket = res.socket;
      // Only a drained socket: one that still holds bytes of ours skips this delta (it is lost
      // to that client; a floor keeps no state to merge it into the next one).
      if (!socket || socket.writableLength > 0) continue;
      const out = res.gzip ? packFor(chain, res as ChainPosition, bytes, packAloneOnce) : bytes;
      socket.write(chunkOf(out));
    }
  });
});

const connected = Buffer.from('event: connected\ndata: {"reconnectAfterInactivityMs":12000}\n\n');
/** What a new client gets first, made once per version (and per encoding) for every newcomer. */
let openings: { of: typeof last; plain: Buffer; gzip?: Buffer } | undefined;
function opening(gzip: boolean): Buffer {
  if (openings?.of !== last) {
    openings = {
      of: last,
      plain: Buffer.concat([connected, frame({ kind: "snapshot", ...last })]),
    };
  }
  if (!gzip) return openings.plain;
  openings.gzip ??= Buffer.concat([GZIP_HEADER, packAlone(openings.plain)]);
  return openings.gzip;
}
const server = createServer((req, res) => {
  const gzip = acceptsGzip(req.headers["accept-encoding"]);
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    ...(gzip && { "content-encoding": "gzip" }),
  });
  res.write(opening(gzip));
  Object.assign(res, { gzip, chainSeq: -1, runStart: 0 });
  clients.add(res);
  req.on("close", () => clients.delete(res));
});
await new Promise<void>((resolve) =>
  server.listen({ port: 0, host: "127.0.0.1", backlog: 16_384 }, resolve),
);
createSimulatorFeed({ duties, seed: 7, now: createPreciseClock() }).start((q) => hub.ingest(q));

const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
const send = (reply: ServerReply) => process.send?.(reply);
process.on("message", (request: ServerRequest) => {
  if (request.type === "stop") process.exit(0);
  const cpu = process.cpuUsage();
  send({
    type: "stats",
    rss: process.memoryUsage().rss,
    subscribers: clients.size,
    cpuMs: (cpu.user + cpu.system) / 1000,
    loopDelayP99Ms: loopDelay.percentile(99) / 1e6,
  });
  if (request.since) loopDelay.reset();
});
process.on("disconnect", () => process.exit(0));
const { port } = server.address() as AddressInfo;
send({ type: "ready", url: `http://127.0.0.1:${port}` });
