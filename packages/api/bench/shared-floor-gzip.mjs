// The shared floor (../shared/perf/floor-server.mjs) doing the one thing more the project does:
// gzip for a client that asks for it. One compressed copy per step, compressed alone (raw
// deflate, sync flush) after a gzip member header, shared by every client; plain text to a client
// that does not ask. Otherwise the same snapshot, cadence and skipping of full sockets.
import { createServer, get } from "node:http";
import { openEventStream, pack } from "./floor-stream.mjs";

const [port, sourceUrl] = process.argv.slice(2);
const fetchJson = (u) =>
  new Promise((res, rej) =>
    get(u, (r) => {
      let b = "";
      r.on("data", (c) => (b += c));
      r.on("end", () => res(JSON.parse(b)));
    }).on("error", rej),
  );
const prices = await fetchJson(`${sourceUrl}/api/prices`);
const calculations = await fetchJson(`${sourceUrl}/api/calculations`);
const DELTA = process.env.FLOOR_MODE === "delta";
const quotes = [];
for (const [group, g] of Object.entries(prices))
  if (g && typeof g === "object")
    for (const [key, q] of Object.entries(g))
      if (q && typeof q === "object") quotes.push({ group, key, q });
const clients = new Set();
setInterval(() => {
  const ts = Date.now();
  const delta = {};
  let changed = false;
  for (const { group, key, q } of quotes)
    if (Math.random() < 0.2) {
      q.timestamp = ts;
      changed = true;
      delta[group] = { ...delta[group], [key]: q };
    }
  if (!changed) return;
  const plain = Buffer.from(
    `data: ${JSON.stringify(DELTA ? { prices: delta } : { prices, calculations })}\n\n`,
  );
  // Compressed alone once per step, and only when some client asked for gzip.
  let packed;
  for (const c of clients) {
    if (c.blocked) continue;
    if (c.gzip && packed === undefined) packed = pack(plain);
    const buf = c.gzip ? packed : plain;
    if (!c.res.write(buf)) {
      c.blocked = true;
      c.res.once("drain", () => (c.blocked = false));
    }
  }
}, 50);
createServer((req, res) => {
  const c = { res, blocked: false, gzip: openEventStream(req, res) };
  clients.add(c);
  req.on("close", () => clients.delete(c));
}).listen({ port: Number(port), host: "127.0.0.1", backlog: 16384 }, () =>
  console.log(`gzip floor on ${port}, ${quotes.length} quotes`),
);
