// What the change stream's bytes are made of, and what they would be if it sent less (BENCHMARKS
// §14): records the plain stream of the real server for a while, prints each part's share (the
// spreads' calculations, each price section), then re-compresses the recording as the stream's
// gzip chain does (deflate with an 8 kB window, a sync flush per frame) as it is and as it would
// be with a client subscribed to the fifteen built-in keys only, with each other instrument sent at
// most once a second, and with no per-entry `timestamp`. An estimate, not the stream: compare its
// "as sent" line with fanout.bench.ts's live figure.
//   BENCH_INSTRUMENTS=shipped (default) | default   BENCH_MIX_SECONDS=60
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { constants, createDeflateRaw } from "node:zlib";
import { BUILT_IN_KEYS, priceField } from "@spreadwatch/core";
import { CHAIN_WINDOW } from "../src/stream/stream-encoding.ts";
import type { ServerReply, ServerRequest } from "./sse-server.ts";

const INSTRUMENTS = process.env.BENCH_INSTRUMENTS ?? "shipped";
const SECONDS = Number(process.env.BENCH_MIX_SECONDS ?? 60);
const WARMUP_MS = 3_000;
/** Price fields of the fifteen built-in keys (NIFTY50 is `nifty50` in its section). */
const BUILT_IN_FIELDS = new Set<string>(BUILT_IN_KEYS.map((key) => priceField(key)));

type Entries = Record<string, Record<string, unknown> | null>;
interface Delta {
  kind: string;
  prices?: Record<string, Entries | number | null>;
  calculations?: unknown;
}

const dataDir = mkdtempSync(join(tmpdir(), "spreadwatch-mix-"));
const server = fork(fileURLToPath(new URL("./sse-server.ts", import.meta.url)), {
  env: { ...process.env, DATA_DIR: dataDir, BENCH_CLOCK: "plain", BENCH_INSTRUMENTS: INSTRUMENTS },
  execArgv: ["--import", import.meta.resolve("tsx")],
  stdio: ["ignore", "ignore", "inherit", "ipc"],
});
const ready = await new Promise<Extract<ServerReply, { type: "ready" }>>((resolve) =>
  server.on("message", (reply: ServerReply) => reply.type === "ready" && resolve(reply)),
);

/** The `data:` payloads of the delta events received after the warm-up. */
const payloads = await new Promise<string[]>((resolve) => {
  const out: string[] = [];
  let pending = "";
  const started = Date.now();
  const request = get(`${ready.url}/api/trpc/market.onSnapshot`, (res) => {
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      pending += chunk;
      for (let end = pending.indexOf("\n\n"); end >= 0; end = pending.indexOf("\n\n")) {
        const event = pending.slice(0, end);
        pending = pending.slice(end + 2);
        const data = event.split("\n").find((line) => line.startsWith("data: {"));
        if (data && Date.now() - started >= WARMUP_MS) out.push(data.slice(6));
      }
    });
  });
  setTimeout(
    () => {
      request.destroy();
      resolve(out);
    },
    WARMUP_MS + SECONDS * 1000,
  );
});
server.send({ type: "stop" } satisfies ServerRequest);
rmSync(dataDir, { recursive: true, force: true });

/** tRPC's envelope around a message; the `connected` event has none. */
const bodyOf = (message: { data?: { json?: Delta } & Delta }): Delta =>
  message.data?.json ?? message.data ?? (message as Delta);

type Entry = Record<string, unknown> | null;

/** Every price entry of a delta: section, field, entry, and the section's entries. */
function* entries(delta: Delta): Generator<[string, string, Entry, Entries]> {
  for (const [section, value] of Object.entries(delta.prices ?? {})) {
    if (value && typeof value === "object") {
      for (const [field, entry] of Object.entries(value)) yield [section, field, entry, value];
    }
  }
}

function put(delta: Delta, section: string, field: string, entry: Entry): void {
  const prices = delta.prices ?? {};
  delta.prices = prices;
  const value = prices[section];
  const entries: Entries = value && typeof value === "object" ? value : {};
  prices[section] = entries;
  entries[field] = entry;
}

const messages = payloads.map((p) => JSON.parse(p) as { data?: { json?: Delta } & Delta });
const deltas = messages.filter((m) => bodyOf(m).kind === "delta");
const total = deltas.reduce((n, m) => n + JSON.stringify(m).length, 0);
const shares = new Map<string, number>();
for (const m of deltas) {
  const body = bodyOf(m);
  shares.set(
    "calculations",
    (shares.get("calculations") ?? 0) + JSON.stringify(body.calculations ?? {}).length,
  );
  for (const [section, value] of Object.entries(body.prices ?? {})) {
    const key = `prices.${section}`;
    shares.set(key, (shares.get(key) ?? 0) + JSON.stringify(value).length);
  }
}
const priced = new Set([
  ...deltas.flatMap((m) => [...entries(bodyOf(m))].map(([s, f]) => `${s}.${f}`)),
]);
console.log(
  `stream mix: ${INSTRUMENTS} instruments (${ready.instruments} in use, ${priced.size} seen quoting), ` +
    `${deltas.length} deltas in ${SECONDS} s, ${Math.round(total / deltas.length)} B per delta plain`,
);
for (const [part, bytes] of [...shares].sort((a, b) => b[1] - a[1])) {
  console.log(
    `  ${part.padEnd(18)} ${((bytes / total) * 100).toFixed(1).padStart(5)} %  ${Math.round(bytes / deltas.length)} B per delta`,
  );
}

/** Bytes of the frames through one deflate stream, flushed per frame, with the chain's window. */
async function chained(frames: readonly string[]): Promise<number> {
  const deflate = createDeflateRaw({ windowBits: Math.log2(CHAIN_WINDOW), level: 6 });
  let bytes = 0;
  deflate.on("data", (chunk: Buffer) => {
    bytes += chunk.length;
  });
  for (const frame of frames) {
    deflate.write(frame);
    await new Promise<void>((resolve) => deflate.flush(constants.Z_SYNC_FLUSH, () => resolve()));
  }
  return bytes;
}

const frame = (message: unknown) => `data: ${JSON.stringify(message)}\n\n`;
const edited = (edit: (delta: Delta) => void) =>
  deltas.map((m) => {
    const copy = structuredClone(m);
    const delta = bodyOf(copy);
    edit(delta);
    // As the stream does, a section with no entry left is not sent.
    for (const [section, value] of Object.entries(delta.prices ?? {})) {
      if (value && typeof value === "object" && Object.keys(value).length === 0) {
        delete delta.prices?.[section];
      }
    }
    return frame(copy);
  });
const lastSent = new Map<string, number>();
const held = new Map<string, [string, string, Entry]>();
const variants: Array<[string, string[]]> = [
  ["as sent", deltas.map(frame)],
  [
    "the fifteen only",
    edited((d) => {
      for (const [, field, , section] of entries(d)) {
        if (!BUILT_IN_FIELDS.has(field)) delete section[field];
      }
    }),
  ],
  [
    "others ≤ 1/s each",
    edited((d) => {
      const ts = typeof d.prices?.timestamp === "number" ? d.prices.timestamp : 0;
      for (const [section, field, entry, entriesOf] of entries(d)) {
        if (BUILT_IN_FIELDS.has(field)) continue;
        held.set(`${section}.${field}`, [section, field, entry]);
        delete entriesOf[field];
      }
      for (const [id, [section, field, entry]] of held) {
        if (ts - (lastSent.get(id) ?? Number.NEGATIVE_INFINITY) < 1000) continue;
        put(d, section, field, entry);
        lastSent.set(id, ts);
        held.delete(id);
      }
    }),
  ],
  [
    "no entry timestamps",
    edited((d) => {
      for (const [, , entry] of entries(d)) if (entry) delete entry.timestamp;
    }),
  ],
];
const perSecond = deltas.length / SECONDS;
for (const [name, frames] of variants) {
  const bytes = await chained(frames);
  console.log(
    `  gzip chain, ${name.padEnd(20)} ${Math.round(bytes / frames.length)} B per delta, ` +
      `${(((bytes / frames.length) * perSecond * 3600) / 1e6).toFixed(1)} MB per client-hour at ${perSecond.toFixed(1)} deltas/s`,
  );
}
process.exit(0);
