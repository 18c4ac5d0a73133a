// The stream clients of fanout.bench.ts, in their own process so their CPU is not the server's.
// Opens COUNT streams spread evenly over OPEN_MS (browsers coming back after a restart, with
// their jittered backoff); up to PROBES of them parse every delta and time each price entry in it
// (arrival − quote timestamp, one clock for both processes, see clock.ts). The others are raw
// sockets that count bytes (no HTTP parser: the clients must cost far less than the server).
// GZIP=1 asks for gzip as a browser does; probes then decode it.
import { get, type IncomingMessage } from "node:http";
import { connect } from "node:net";
import { createGunzip } from "node:zlib";
import { createPreciseClock } from "./clock.ts";

export type ClientsRequest = { type: "measure"; ms: number } | { type: "stop" };
export type ClientsReply =
  | { type: "connected"; connected: number; failed: number; seconds: number }
  | {
      type: "measured";
      samples: number[];
      messagesPerClient: number;
      bytesPerClient: number;
      /** Fewest messages any probe got while measuring. */
      fewestMessages: number;
      connectedAtEnd: number;
      cpuMs: number;
    };

const [url = "", countText = "1", probesText = "50", openMsText = "0", gzipText = "1"] =
  process.argv.slice(2);
const gzip = gzipText === "1";
const openMs = Number(openMsText);
const count = Number(countText);
const probeEvery = Math.max(1, Math.ceil(count / Number(probesText)));
const now = createPreciseClock();
const send = (reply: ClientsReply) => process.send?.(reply);

interface Client {
  /** Messages (probes only: the others do not decode). */
  messages: number;
  bytes: number;
  open: boolean;
}
let recording = false;
const samples: number[] = [];
const clients: Client[] = [];

/** Times each price entry of every delta this probe receives. */
function probe(res: IncomingMessage, client: Client) {
  let buffer = "";
  res.on("data", (chunk: Buffer) => {
    client.bytes += chunk.length;
  });
  const decoded = res.headers["content-encoding"] === "gzip" ? res.pipe(createGunzip()) : res;
  decoded.setEncoding("utf8");
  decoded.on("data", (chunk: string) => {
    const at = now();
    buffer += chunk;
    for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (!event.startsWith("data: ")) continue;
      client.messages++;
      const message = JSON.parse(event.slice(6));
      if (message.kind !== "delta" || !recording) continue;
      for (const [section, entries] of Object.entries(message.prices)) {
        if (section === "timestamp" || entries === null) continue;
        for (const entry of Object.values(entries as Record<string, { timestamp: number }>))
          if (entry) samples.push(at - entry.timestamp);
      }
    }
  });
}

/**
 * The stream's path; BENCH_STREAM_INPUT (JSON) makes every client ask for that selection only, as
 * a screen that shows some instruments does (docs/http-api.md, "Live stream").
 */
const STREAM_PATH = `/api/trpc/market.onSnapshot${
  process.env.BENCH_STREAM_INPUT
    ? `?input=${encodeURIComponent(process.env.BENCH_STREAM_INPUT)}`
    : ""
}`;

/** A raw stream client: sends the request, counts the bytes that come back. */
function sink(client: Client, onOpen: (ok: boolean) => void) {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  let opened = false;
  socket.on("connect", () => {
    socket.write(
      `GET ${STREAM_PATH} HTTP/1.1\r\nHost: ${hostname}\r\n` +
        `${gzip ? "Accept-Encoding: gzip\r\n" : ""}\r\n`,
    );
  });
  socket.on("data", (chunk: Buffer) => {
    client.bytes += chunk.length;
    if (!opened) {
      opened = true;
      client.open = chunk.subarray(0, 12).toString() === "HTTP/1.1 200";
      onOpen(client.open);
    }
  });
  const closed = () => {
    if (!opened) {
      opened = true;
      onOpen(false);
    }
    client.open = false;
  };
  socket.on("error", closed);
  socket.on("close", closed);
}

const started = performance.now();
let settled = 0;
let failed = 0;
const settle = () => {
  settled++;
  if (settled === count)
    send({
      type: "connected",
      connected: clients.filter((c) => c.open).length,
      failed,
      seconds: (performance.now() - started) / 1000,
    });
};
function open(i: number) {
  const client: Client = { messages: 0, bytes: 0, open: false };
  clients.push(client);
  if (i % probeEvery !== 0) {
    sink(client, (ok) => {
      if (!ok) failed++;
      settle();
    });
    return;
  }
  const headers = gzip ? { "accept-encoding": "gzip" } : {};
  const request = get(`${url}${STREAM_PATH}`, { agent: false, headers }, (res) => {
    client.open = res.statusCode === 200;
    if (client.open) {
      probe(res, client);
      res.once("close", () => {
        client.open = false;
      });
    } else failed++;
    settle();
  });
  request.on("error", () => {
    if (!client.open) {
      failed++;
      settle();
    }
    client.open = false;
  });
}
for (let i = 0; i < count; i++) {
  if (openMs > 0) setTimeout(() => open(i), (i / count) * openMs);
  else open(i);
}

process.on("message", (request: ClientsRequest) => {
  if (request.type === "stop") process.exit(0);
  // Each measure reports its own window: a process asked twice (cluster-latency.bench.ts) must
  // not send the first window's samples again.
  samples.length = 0;
  const before = clients.map((c) => ({ messages: c.messages, bytes: c.bytes }));
  const cpuBefore = process.cpuUsage();
  recording = true;
  setTimeout(() => {
    recording = false;
    const cpu = process.cpuUsage(cpuBefore);
    const open = clients.filter((c) => c.open);
    const got = clients
      .map((c, i) => c.messages - (before[i]?.messages ?? 0))
      .filter((_, i) => i % probeEvery === 0);
    const bytes = clients.reduce((sum, c, i) => sum + c.bytes - (before[i]?.bytes ?? 0), 0);
    send({
      type: "measured",
      samples: samples.sort((a, b) => a - b),
      messagesPerClient: got.reduce((a, b) => a + b, 0) / got.length,
      bytesPerClient: bytes / count,
      fewestMessages: Math.min(...got),
      connectedAtEnd: open.length,
      cpuMs: (cpu.user + cpu.system) / 1000,
    });
  }, request.ms);
});
process.on("disconnect", () => process.exit(0));
