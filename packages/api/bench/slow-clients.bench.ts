// Slow clients: 50 market.onSnapshot streams that read their first bytes and then never again,
// against the real server fed by the simulator, for 5 minutes. Reports the server's RSS, what
// the kernel holds for those streams (the server side's unsent bytes, Send-Q, and the clients'
// unread bytes, Recv-Q, from `ss`), the machine's TCP memory (/proc/net/sockstat) and how many
// streams the server still holds, at the start and every 30 s. Before the drop of blocked streams
// (docs/operations.md, "Security and limits") nothing dropped such clients; now one whose socket
// stays blocked for 30 s is reset.
import { execFileSync, fork } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerReply, ServerRequest, ServerStats } from "./sse-server.ts";

const CLIENTS = Number(process.env.BENCH_SLOW_CLIENTS ?? 50);
const MINUTES = Number(process.env.BENCH_SLOW_MINUTES ?? 5);
const SAMPLE_EVERY_MS = 30_000;
const PAGE_BYTES = 4096;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => bytes / 2 ** 20;

type Child = ReturnType<typeof fork>;

function startServer(dataDir: string): Promise<{ child: Child; url: string }> {
  const child = fork(fileURLToPath(new URL("./sse-server.ts", import.meta.url)), {
    env: { ...process.env, DATA_DIR: dataDir },
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

function stats(child: Child): Promise<ServerStats> {
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

function stop(child: Child): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.send({ type: "stop" } satisfies ServerRequest);
  });
}

/** Subscribes, waits for the first bytes, then stops reading for good. */
function openNonReader(host: string, port: number): Promise<Socket> {
  const socket = connect({ host, port });
  socket.on("error", () => undefined);
  socket.write(`GET /api/trpc/market.onSnapshot HTTP/1.1\r\nHost: ${host}:${port}\r\n\r\n`);
  return new Promise((resolve) => {
    socket.once("data", () => {
      socket.pause();
      resolve(socket);
    });
  });
}

interface KernelQueues {
  /** Established server-side sockets of the server's port: the streams it still holds. */
  serverStreams: number;
  serverSendQ: number;
  clientRecvQ: number;
}

/** Sums Send-Q and Recv-Q over the loopback sockets on either end of the server's port. */
function kernelQueues(port: number): KernelQueues {
  const out = execFileSync("ss", ["-tnH"], { encoding: "utf8" });
  const queues: KernelQueues = { serverStreams: 0, serverSendQ: 0, clientRecvQ: 0 };
  for (const line of out.split("\n")) {
    const [state, recvQ, sendQ, local, peer] = line.trim().split(/\s+/);
    if (state !== "ESTAB" || !local || !peer) continue;
    if (local.endsWith(`:${port}`)) {
      queues.serverStreams++;
      queues.serverSendQ += Number(sendQ);
    } else if (peer.endsWith(`:${port}`)) queues.clientRecvQ += Number(recvQ);
  }
  return queues;
}

/** The machine's TCP buffer memory and orphaned sockets (every process, not only these). */
function sockstat(): { tcpMemBytes: number; orphans: number } {
  const tcp = /^TCP: (.*)$/m.exec(readFileSync("/proc/net/sockstat", "utf8"))?.[1] ?? "";
  const field = (name: string) => Number(new RegExp(`\\b${name} (\\d+)`).exec(tcp)?.[1] ?? NaN);
  return { tcpMemBytes: field("mem") * PAGE_BYTES, orphans: field("orphan") };
}

async function sample(child: Child, port: number, startedAt: number) {
  const { rss } = await stats(child);
  return {
    bench: "slow-clients",
    clients: CLIENTS,
    atSeconds: Math.round((performance.now() - startedAt) / 1000),
    rssMb: mb(rss),
    ...kernelQueues(port),
    ...sockstat(),
  };
}

function print(s: Awaited<ReturnType<typeof sample>>) {
  console.log(
    `slow clients: t=${String(s.atSeconds).padStart(3)} s  server RSS ${s.rssMb.toFixed(1)} MB, ` +
      `streams held ${s.serverStreams}, unsent (server Send-Q) ${mb(s.serverSendQ).toFixed(2)} MB, ` +
      `unread (clients' Recv-Q) ${mb(s.clientRecvQ).toFixed(2)} MB; machine TCP mem ` +
      `${mb(s.tcpMemBytes).toFixed(1)} MB, orphans ${s.orphans}`,
  );
  console.log(`RESULT ${JSON.stringify(s)}`);
}

const dataDir = mkdtempSync(join(tmpdir(), "spreadwatch-bench-"));
// A first start on an empty data directory backfills 30 days of candles, which a running server
// has long done: the figures come from a second start on the same directory (as in sse.bench).
await stop((await startServer(dataDir)).child);
const { child, url } = await startServer(dataDir);
const { hostname, port } = new URL(url);
const clients: Socket[] = [];
try {
  const idle = await sample(child, Number(port), performance.now());
  console.log(`slow clients: server at ${url}, before any client:`);
  print(idle);
  for (let i = 0; i < CLIENTS; i++) clients.push(await openNonReader(hostname, Number(port)));
  const startedAt = performance.now();
  console.log(`slow clients: ${CLIENTS} clients subscribed and stopped reading`);
  print(await sample(child, Number(port), startedAt));
  while (performance.now() - startedAt < MINUTES * 60_000) {
    await sleep(SAMPLE_EVERY_MS);
    print(await sample(child, Number(port), startedAt));
  }
} finally {
  for (const socket of clients) socket.destroy();
  await stop(child);
  rmSync(dataDir, { recursive: true, force: true });
}
