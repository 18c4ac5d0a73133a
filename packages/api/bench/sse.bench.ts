// Quote → SSE client latency with 1, 100 and 1,000 subscribers of market.onSnapshot on loopback,
// and the server's RSS at 1,000. Clients are raw HTTP GETs parsing SSE in this process.
import { type ChildProcess, fork } from "node:child_process";
import { type ClientRequest, get } from "node:http";
import { fileURLToPath } from "node:url";
import { createPreciseClock } from "./clock.ts";
import type { ServerReply, ServerRequest } from "./sse-server.ts";

const COUNTS = [1, 100, 1_000];
const WARMUP_MS = 1_000;
const MEASURE_MS = 10_000;
const GOAL_P99_MS = 50;
const GOAL_RSS_MB = 150;

const now = createPreciseClock();

interface Client {
  request: ClientRequest;
  messages: number;
  /** Latest quote time seen per instrument, e.g. "cme.GC" → epoch ms. */
  seen: Map<string, number>;
  firstMessage: Promise<void>;
}

interface Recorder {
  recording: boolean;
  samples: number[];
  errors: number;
}

type Entry = { timestamp?: number };
type Snapshot = { prices: Record<string, Record<string, Entry> | number | null> };

/** Records, for every instrument whose quote changed since this client's last message, its latency. */
function onSnapshot(client: Client, data: string, receivedAt: number, recorder: Recorder) {
  const { prices } = JSON.parse(data) as Snapshot;
  const first = client.messages === 0;
  client.messages++;
  for (const [group, entries] of Object.entries(prices)) {
    if (entries === null || typeof entries !== "object") continue;
    for (const [key, entry] of Object.entries(entries)) {
      const ts = entry.timestamp;
      if (ts === undefined) continue;
      const path = `${group}.${key}`;
      const previous = client.seen.get(path);
      if (previous !== undefined && ts <= previous) continue;
      client.seen.set(path, ts);
      // The first message is the state at connect time, not a fresh quote.
      if (!first && recorder.recording) recorder.samples.push(receivedAt - ts);
    }
  }
}

/** Plain `data:` events carry snapshots; named ones (`connected`, `ping`) and blanks do not. */
function snapshotData(event: string): string | undefined {
  let data: string | undefined;
  for (const line of event.split("\n")) {
    if (line.startsWith("event:")) return undefined;
    if (line.startsWith("data:"))
      data = (data === undefined ? "" : `${data}\n`) + line.slice(5).trimStart();
  }
  return data;
}

function connect(url: string, recorder: Recorder): Client {
  let resolveFirst: () => void;
  let rejectFirst: (error: Error) => void;
  const firstMessage = new Promise<void>((resolve, reject) => {
    resolveFirst = resolve;
    rejectFirst = reject;
  });
  const client = { messages: 0, seen: new Map(), firstMessage } as unknown as Client;
  client.request = get(`${url}/api/trpc/market.onSnapshot`, { agent: false }, (res) => {
    if (res.statusCode !== 200) {
      rejectFirst(new Error(`subscription answered ${res.statusCode}`));
      res.resume();
      return;
    }
    res.setEncoding("utf8");
    let buffer = "";
    res.on("data", (chunk: string) => {
      const receivedAt = now();
      buffer += chunk;
      let end = buffer.indexOf("\n\n");
      while (end !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        const data = snapshotData(event);
        if (data !== undefined) {
          onSnapshot(client, data, receivedAt, recorder);
          if (client.messages === 1) resolveFirst();
        }
      }
    });
  });
  client.request.on("error", (error) => {
    if (recorder.recording) recorder.errors++;
    rejectFirst(error);
  });
  return client;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(new URL("./sse-server.ts", import.meta.url)), {
    execArgv: ["--import", import.meta.resolve("tsx")],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`bench server exited early (${code})`)));
    child.once("message", (reply: ServerReply) => {
      if (reply.type === "ready") resolve({ child, url: reply.url });
    });
  });
}

function stats(child: ChildProcess): Promise<{ rss: number; subscribers: number }> {
  return new Promise((resolve) => {
    const onMessage = (reply: ServerReply) => {
      if (reply.type !== "stats") return;
      child.off("message", onMessage);
      resolve(reply);
    };
    child.on("message", onMessage);
    child.send({ type: "stats" } satisfies ServerRequest);
  });
}

async function scenario(child: ChildProcess, url: string, count: number) {
  const recorder: Recorder = { recording: false, samples: [], errors: 0 };
  const clients: Client[] = [];
  // Connect in waves so the listen backlog never overflows.
  for (let i = 0; i < count; i += 100) {
    const wave = Array.from({ length: Math.min(100, count - i) }, () => connect(url, recorder));
    clients.push(...wave);
    await Promise.all(wave.map((c) => c.firstMessage));
  }
  await sleep(WARMUP_MS);
  const countsBefore = clients.map((c) => c.messages);
  recorder.recording = true;
  let peakRss = 0;
  let subscribers = 0;
  const endAt = Date.now() + MEASURE_MS;
  while (Date.now() < endAt) {
    const s = await stats(child);
    peakRss = Math.max(peakRss, s.rss);
    subscribers = s.subscribers;
    await sleep(500);
  }
  recorder.recording = false;
  const perClient = clients.map((c, i) => c.messages - (countsBefore[i] ?? 0));
  for (const c of clients) c.request.destroy();

  const sorted = recorder.samples.sort((a, b) => a - b);
  return {
    subscribers: count,
    serverSubscribers: subscribers,
    samples: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    messagesPerClientPerSecond: Math.min(...perClient) / (MEASURE_MS / 1000),
    peakRssMb: peakRss / 2 ** 20,
    errors: recorder.errors,
  };
}

const { child, url } = await startServer();
try {
  const idle = await stats(child);
  console.log(`sse: server ${url}, idle RSS ${(idle.rss / 2 ** 20).toFixed(1)} MB`);
  for (const count of COUNTS) {
    const r = await scenario(child, url, count);
    const goal =
      count === 1_000
        ? `; goal p99 ≤ ${GOAL_P99_MS} ms: ${r.p99 <= GOAL_P99_MS ? "met" : "NOT met"}, ` +
          `RSS ≤ ${GOAL_RSS_MB} MB: ${r.peakRssMb <= GOAL_RSS_MB ? "met" : "NOT met"}`
        : "";
    console.log(
      `sse: ${count} subscribers: p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ` +
        `max ${r.max.toFixed(2)} ms over ${r.samples.toLocaleString("en-US")} quote deliveries; ` +
        `≥ ${r.messagesPerClientPerSecond.toFixed(1)} msgs/s each; server RSS peak ` +
        `${r.peakRssMb.toFixed(1)} MB; errors ${r.errors}${goal}`,
    );
    console.log(`RESULT ${JSON.stringify({ bench: "sse", ...r })}`);
    // Let the server notice the closed streams before the next wave.
    await sleep(1_000);
  }
} finally {
  child.send({ type: "stop" } satisfies ServerRequest);
}
