// A floor that does the project's job and nothing else: it sends the project's own frames.
// The shared harness's floors send a prices-only delta of ~0.4 kB, and plain text even to a
// client that asks for gzip; the project's frame carries what docs/design.md §3 says the stream
// pushes ({prices, calculations}, each spread with its per-lot costs: ~2.4 kB), gzip-chained
// against the last 32 kB (src/stream/stream-encoding.ts). This floor records ~3 s of the
// project's stream, then plays those frames in a loop at the simulator's step (100 ms), every
// timestamp set to now, chained the same way: the same bytes for a client to read, inflate and
// parse, with nothing of the project's work to make them (BENCHMARKS.md §46).
// Run by shared-fanout-same-frames.sh in the harness's floor's place: `node … <port> <project>`.
import { createServer, get } from "node:http";
import { openEventStream, pack } from "./floor-stream.mjs";

const [port, sourceUrl] = process.argv.slice(2);
const STEP_MS = 100;
const WINDOW = 32_768;
const RECORD_MS = 3_000;

/** The project's delta events, as its stream wrote them (plain text). */
const frames = await new Promise((resolve, reject) => {
  let text = "";
  const req = get(`${sourceUrl}/api/trpc/market.onSnapshot`, { agent: false }, (res) => {
    res.setEncoding("utf8");
    res.on("data", (chunk) => (text += chunk));
  });
  req.on("error", reject);
  setTimeout(() => {
    req.destroy();
    const events = text.split("\n\n").filter((event) => event.includes('"kind":"delta"'));
    if (events.length === 0) reject(new Error(`no delta frames from ${sourceUrl}`));
    else resolve(events.map((event) => `${event}\n\n`));
  }, RECORD_MS);
});

const clients = new Set();
let history = Buffer.alloc(0);
let previous;
let next = 0;
setInterval(() => {
  const plain = Buffer.from(
    frames[next++ % frames.length].replace(/"timestamp":\d+/g, `"timestamp":${Date.now()}`),
  );
  if (previous) history = Buffer.concat([history, previous]).subarray(-WINDOW);
  previous = plain;
  let alone;
  let chained;
  for (const c of clients) {
    if (c.blocked) continue;
    let bytes = plain;
    if (c.gzip) {
      // As the project's packFor: chained once the client has read a whole window of frames.
      if (c.run >= WINDOW && history.length >= WINDOW) bytes = chained ??= pack(plain, history);
      else bytes = alone ??= pack(plain);
      c.run += plain.length;
    }
    if (!c.res.write(bytes)) {
      c.blocked = true;
      c.run = 0;
      c.res.once("drain", () => (c.blocked = false));
    }
  }
}, STEP_MS);

createServer((req, res) => {
  const c = { res, gzip: openEventStream(req, res), blocked: false, run: 0 };
  clients.add(c);
  req.on("close", () => clients.delete(c));
}).listen({ port: Number(port), host: "127.0.0.1", backlog: 16384 }, () =>
  console.log(`same-frames floor on ${port}, ${frames.length} frames of the project's`),
);
