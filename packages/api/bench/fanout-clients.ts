// The stream clients of fanout.bench.ts, in their own process so their CPU is not the server's.
// Opens COUNT streams at once (as browsers do after a restart); up to PROBES of them parse every
// delta and time each price entry in it (arrival − quote timestamp, one clock for both
// processes, see clock.ts); all count messages and bytes.
import { get, type IncomingMessage } from "node:http";
import { createPreciseClock } from "./clock.ts";

export type ClientsRequest = { type: "measure"; ms: number } | { type: "stop" };
export type ClientsReply =
  | { type: "connected"; connected: number; failed: number; seconds: number }
  | {
      type: "measured";
      samples: number[];
      messagesPerClient: number;
      bytesPerClient: number;
      /** Fewest messages any connected client got while measuring. */
      fewestMessages: number;
      connectedAtEnd: number;
      cpuMs: number;
    };

const [url = "", countText = "1", probesText = "50"] = process.argv.slice(2);
const count = Number(countText);
const probeEvery = Math.max(1, Math.ceil(count / Number(probesText)));
const now = createPreciseClock();
const send = (reply: ClientsReply) => process.send?.(reply);

interface Client {
  messages: number;
  bytes: number;
  open: boolean;
  res?: IncomingMessage;
}
let recording = false;
const samples: number[] = [];
const clients: Client[] = [];

/** Times each price entry of every delta this probe receives. */
function probe(res: IncomingMessage, client: Client) {
  let buffer = "";
  res.setEncoding("utf8");
  res.on("data", (chunk: string) => {
    const at = now();
    client.bytes += Buffer.byteLength(chunk);
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

/** Counts messages (event ends outside named events are near enough: pings are rare). */
function sink(res: IncomingMessage, client: Client) {
  let lastByte = 0;
  res.on("data", (chunk: Buffer) => {
    client.bytes += chunk.length;
    if (lastByte === 10 && chunk[0] === 10) client.messages++;
    for (let i = chunk.indexOf("\n\n"); i !== -1; i = chunk.indexOf("\n\n", i + 2))
      client.messages++;
    lastByte = chunk[chunk.length - 1] ?? 0;
  });
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
for (let i = 0; i < count; i++) {
  const client: Client = { messages: 0, bytes: 0, open: false };
  clients.push(client);
  const request = get(`${url}/api/trpc/market.onSnapshot`, { agent: false }, (res) => {
    client.res = res;
    client.open = res.statusCode === 200;
    if (client.open) {
      if (i % probeEvery === 0) probe(res, client);
      else sink(res, client);
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

process.on("message", (request: ClientsRequest) => {
  if (request.type === "stop") process.exit(0);
  const before = clients.map((c) => ({ messages: c.messages, bytes: c.bytes }));
  const cpuBefore = process.cpuUsage();
  recording = true;
  setTimeout(() => {
    recording = false;
    const cpu = process.cpuUsage(cpuBefore);
    const open = clients.filter((c) => c.open);
    const got = clients.map((c, i) => c.messages - (before[i]?.messages ?? 0));
    const bytes = clients.reduce((sum, c, i) => sum + c.bytes - (before[i]?.bytes ?? 0), 0);
    send({
      type: "measured",
      samples: samples.sort((a, b) => a - b),
      messagesPerClient: got.reduce((a, b) => a + b, 0) / count,
      bytesPerClient: bytes / count,
      fewestMessages: Math.min(...got),
      connectedAtEnd: open.length,
      cpuMs: (cpu.user + cpu.system) / 1000,
    });
  }, request.ms);
});
process.on("disconnect", () => process.exit(0));
