import { type ChildProcess, fork } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Writable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { QuoteSource } from "@spreadwatch/core";
import { log } from "../log.ts";
import type { ExecutableSymbol, HubUpdate, MarketHub } from "../market/hub.ts";
import { Touched } from "./delta.ts";
import { HeldBackTimer } from "./held-back.ts";
import {
  admitStream,
  type BroadcasterOptions,
  SnapshotBroadcaster,
  streamHeaders,
} from "./snapshot-broadcaster.ts";
import { acceptsGzip } from "./stream-encoding.ts";
import type { StreamSelection } from "./stream-selection.ts";

/** What composition.ts, the app and /metrics use of the live stream, wherever it is written. */
export interface LiveStream {
  onUpdate(update: HubUpdate): void;
  recomputed(symbols: readonly ExecutableSymbol[]): void;
  forgot(source: QuoteSource): void;
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    ownerId?: number,
    selection?: StreamSelection,
  ): void;
  close(): void;
  readonly clientCount: number;
  readonly messagesSent: number;
  readonly bytesSent: number;
}

/** The server → fan-out process messages (fanout-child.ts). */
export type FanoutCommand =
  | { t: "start"; options: BroadcasterOptions }
  /** A new version: the hub's state as JSON (entries serialise through toJSON), what changed. */
  | { t: "state"; json: string; sections: string[]; symbols: ExecutableSymbol[] }
  /** A stream to serve; its socket comes with the message. */
  | {
      t: "client";
      id: number;
      head: string;
      ownerId: number | undefined;
      selection: string | undefined;
      gzip: boolean;
      address: string;
      /** States sent before it: it is served once the process has read that many. */
      afterStates: number;
    }
  | { t: "close" };

/** The fan-out process → server messages. */
export type FanoutReport =
  | { t: "closed"; id: number }
  | { t: "stats"; messagesSent: number; bytesSent: number };

/** Every price section: a new process starts from a state in which all of them changed. */
const ALL_SECTIONS = ["cme", "mcx", "spot", "zerodha", "fx", "contracts"];
/** A process that died sooner than this after its start is restarted only after this long. */
const RESTART_AFTER_MS = 1000;

interface FanoutChild {
  proc: ChildProcess;
  startedAt: number;
  /** Streams it serves, by id: their client address. */
  clients: Map<number, string>;
  messagesSent: number;
  bytesSent: number;
  /** States written to its pipe. */
  statesSent: number;
}

/**
 * The live stream with its writes in other processes (docs/architecture.md, "Live stream"). At
 * 10,000 clients most of the stream's time is the kernel's write per client per message, on the
 * same event loop as the simulator, the recorder, statistics and alerts: each delayed the other.
 * Node cannot give a socket to a worker thread, but it can give one to a child process. So this
 * process reads and checks every stream request as before (session, selection, per-address
 * limit), makes the response head, and hands the socket to a fan-out process; it sends each new
 * version of the hub's state once per process, and the process runs the very same
 * SnapshotBroadcaster (deltas, gzip chains, windows, pings, drops) over the sockets it holds.
 *
 * A process that dies takes its sockets with it (their browsers reconnect) and is started
 * again. Requests it cannot hand over (HTTP/1.0, a request pipelined behind another, no process
 * running) are served here by an in-process broadcaster, as is everything with `processes` 0.
 */
export class StreamFanout implements LiveStream {
  private readonly local: SnapshotBroadcaster;
  private readonly children: FanoutChild[] = [];
  private touched = new Touched();
  private queued = false;
  private readonly heldBack: HeldBackTimer;
  private restartTimer: NodeJS.Timeout | undefined;
  private readonly streamsByAddress = new Map<string, number>();
  private nextId = 1;
  private closed = false;
  /** Counts of processes that ended, for /metrics' totals. */
  private endedMessages = 0;
  private endedBytes = 0;

  constructor(
    private readonly hub: MarketHub,
    private readonly options: BroadcasterOptions & { processes: number },
  ) {
    // The limit is counted here for every stream, local or handed over.
    this.local = new SnapshotBroadcaster(hub, { ...options, limitPerAddress: 0 });
    this.heldBack = new HeldBackTimer(hub, () => this.changed());
    for (let i = 0; i < options.processes; i++) this.children.push(this.start());
  }

  onUpdate(update: HubUpdate): void {
    this.local.onUpdate(update);
    if (this.children.length === 0) return;
    this.touched.add(update.quote, update.symbols);
    this.changed();
  }

  recomputed(symbols: readonly ExecutableSymbol[]): void {
    this.local.recomputed(symbols);
    this.touched.recomputed(symbols);
    this.changed();
  }

  forgot(source: QuoteSource): void {
    this.local.forgot(source);
    this.touched.forget(source);
    this.changed();
  }

  get clientCount(): number {
    let count = this.local.clientCount;
    for (const child of this.children) count += child.clients.size;
    return count;
  }

  get messagesSent(): number {
    let sum = this.local.messagesSent + this.endedMessages;
    for (const child of this.children) sum += child.messagesSent;
    return sum;
  }

  get bytesSent(): number {
    let sum = this.local.bytesSent + this.endedBytes;
    for (const child of this.children) sum += child.bytesSent;
    return sum;
  }

  /** The fan-out processes' ids (a test ends one to see its clients reconnect). */
  get processIds(): number[] {
    return this.children.flatMap((child) => (child.proc.pid === undefined ? [] : [child.proc.pid]));
  }

  handle(
    req: IncomingMessage,
    res: ServerResponse,
    ownerId?: number,
    selection?: StreamSelection,
  ): void {
    const address = admitStream(req, res, this.options, this.streamsByAddress);
    if (address === undefined) return;
    this.count(address, 1);
    const child = this.leastBusy();
    const socket = req.socket;
    // Handed over only as the connection's current response with nothing written yet, chunked.
    if (
      child === undefined ||
      res.socket !== socket ||
      res.headersSent ||
      req.httpVersion !== "1.1"
    ) {
      req.on("close", () => this.count(address, -1));
      this.local.handle(req, res, ownerId, selection);
      return;
    }
    const gzip = acceptsGzip(req.headers["accept-encoding"]);
    const id = this.nextId++;
    child.clients.set(id, address);
    const command: FanoutCommand = {
      t: "client",
      id,
      head: responseHead(res, gzip),
      ownerId,
      selection: selection?.id,
      gzip,
      address,
      afterStates: child.statesSent,
    };
    // keepOpen: this process's copy of the socket is closed once sent, without touching the
    // connection (the fan-out process holds it then), so the HTTP server forgets it cleanly.
    child.proc.send(command, socket, { keepOpen: true }, (error) => {
      socket.destroy();
      if (error) this.ended(child, id);
    });
  }

  close(): void {
    this.closed = true;
    this.heldBack.clear();
    clearTimeout(this.restartTimer);
    this.local.close();
    for (const child of this.children.splice(0)) {
      this.send(child, { t: "close" });
      if (child.proc.connected) child.proc.disconnect();
      // It ends its streams and exits; one that does not is ended.
      setTimeout(() => child.proc.kill("SIGKILL"), 5000).unref();
    }
    this.streamsByAddress.clear();
  }

  private count(address: string, by: number): void {
    const now = (this.streamsByAddress.get(address) ?? 0) + by;
    if (now > 0) this.streamsByAddress.set(address, now);
    else this.streamsByAddress.delete(address);
  }

  private leastBusy(): FanoutChild | undefined {
    let best: FanoutChild | undefined;
    for (const child of this.children)
      if (child.proc.connected && (!best || child.clients.size < best.clients.size)) best = child;
    return best;
  }

  private changed(): void {
    if (this.queued || this.children.length === 0) return;
    // As the broadcaster: once the feed's burst is in, in the same turn of the event loop.
    this.queued = true;
    queueMicrotask(() => {
      this.queued = false;
      this.publish();
    });
  }

  /** Sends the hub's state and what changed since the last one to every fan-out process. */
  private publish(): void {
    const command = this.stateCommand();
    this.touched = new Touched();
    for (const child of this.children) sendState(child, command);
    this.heldBack.schedule();
  }

  private stateCommand(all = false): FanoutCommand {
    const { snapshot, owned, released } = this.hub.state();
    const touched = new Touched();
    touched.addAll(this.touched);
    touched.recomputed(released);
    return {
      t: "state",
      json: JSON.stringify({ snapshot, owned: [...owned] }),
      sections: all ? ALL_SECTIONS : [...touched.sections],
      symbols: all
        ? (Object.keys(snapshot.calculations) as ExecutableSymbol[])
        : [...touched.symbols],
    };
  }

  private send(child: FanoutChild, command: FanoutCommand): void {
    // A process gone (its exit not yet handled) takes nothing.
    if (child.proc.connected) child.proc.send(command, undefined, {}, () => {});
  }

  private start(): FanoutChild {
    const entry = childEntry();
    const proc = fork(entry.file, [], {
      execArgv: entry.execArgv,
      serialization: "advanced",
      // fd 4: the states (see sendState).
      stdio: ["ignore", "inherit", "inherit", "ipc", "pipe"],
    });
    const child: FanoutChild = {
      proc,
      startedAt: performance.now(),
      clients: new Map(),
      messagesSent: 0,
      bytesSent: 0,
      statesSent: 0,
    };
    proc.on("message", (report: FanoutReport) => {
      if (report.t === "closed") this.ended(child, report.id);
      else {
        child.messagesSent = report.messagesSent;
        child.bytesSent = report.bytesSent;
      }
    });
    // A failed send or kill is reported here; the exit below does the rest.
    proc.on("error", (error) => log.warn({ err: error }, "stream fan-out process error"));
    proc.on("exit", (code, signal) => this.lost(child, code, signal));
    // Neither it nor its channel keeps the server running: the server's own shutdown ends it.
    proc.unref();
    proc.channel?.unref();
    this.send(child, { t: "start", options: { ...this.options, limitPerAddress: 0 } });
    // Neither the pipe nor a failed write to it stops the server; the exit handles the rest.
    (proc.stdio[4] as Writable | null)?.on("error", () => {});
    sendState(child, this.stateCommand(true));
    return child;
  }

  private ended(child: FanoutChild, id: number): void {
    const address = child.clients.get(id);
    if (address === undefined) return;
    child.clients.delete(id);
    this.count(address, -1);
  }

  /** A process ended: its streams went with it (their browsers reconnect); another starts. */
  private lost(child: FanoutChild, code: number | null, signal: NodeJS.Signals | null): void {
    const at = this.children.indexOf(child);
    if (at === -1) return;
    this.children.splice(at, 1);
    for (const id of [...child.clients.keys()]) this.ended(child, id);
    this.endedMessages += child.messagesSent;
    this.endedBytes += child.bytesSent;
    if (this.closed) return;
    log.warn(
      { code, signal, pid: child.proc.pid },
      "stream fan-out process ended; starting another",
    );
    const restart = () => {
      if (!this.closed) this.children.push(this.start());
    };
    if (performance.now() - child.startedAt >= RESTART_AFTER_MS) restart();
    else {
      this.restartTimer = setTimeout(restart, RESTART_AFTER_MS);
      this.restartTimer.unref();
    }
  }
}

/**
 * States go on a pipe of their own, not the IPC channel: a socket sent over IPC holds every later
 * message there until the process acknowledges it, and a crowd connecting at once (10,000
 * reconnecting browsers) then held the stream's states back by seconds. Each is a 4-byte length
 * and the command's JSON.
 */
function sendState(child: FanoutChild, command: FanoutCommand): void {
  const pipe = child.proc.stdio[4] as Writable | null;
  if (!pipe || pipe.destroyed || !pipe.writable) return;
  const body = Buffer.from(JSON.stringify(command));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  pipe.write(Buffer.concat([length, body]));
  child.statesSent++;
}

/**
 * The response head Node would write for the stream: the headers set on the response so far
 * (the app's security headers) and the stream's own, chunked.
 */
function responseHead(res: ServerResponse, gzip: boolean): string {
  const headers: Record<string, unknown> = {
    ...res.getHeaders(),
    ...streamHeaders(gzip),
    date: new Date().toUTCString(),
    "transfer-encoding": "chunked",
  };
  let head = "HTTP/1.1 200 OK\r\n";
  for (const [name, value] of Object.entries(headers)) {
    for (const one of Array.isArray(value) ? value : [value]) head += `${name}: ${one}\r\n`;
  }
  return `${head}\r\n`;
}

/**
 * The fan-out process's program: the bundle (`pnpm build`, scripts/build-server.mjs) when it is
 * not older than the sources, so the tests and `pnpm dev` start what production starts without a
 * TypeScript compile per start; else the TypeScript source through tsx.
 */
function childEntry(): { file: string; execArgv: string[] } {
  const bundled = fileURLToPath(new URL("../../dist/stream-fanout.mjs", import.meta.url));
  const source = fileURLToPath(new URL("./fanout-child.ts", import.meta.url));
  if (existsSync(bundled) && !sourcesNewerThan(statSync(bundled).mtimeMs))
    return { file: bundled, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  return { file: source, execArgv: ["--import", tsx] };
}

/** Whether a source of the api or core package changed after `mtimeMs`. */
function sourcesNewerThan(mtimeMs: number): boolean {
  for (const pkg of ["../../src", "../../../core/src"]) {
    const dir = fileURLToPath(new URL(pkg, import.meta.url));
    if (!existsSync(dir)) continue;
    for (const item of readdirSync(dir, { withFileTypes: true, recursive: true }))
      if (item.isFile() && statSync(join(item.parentPath, item.name)).mtimeMs > mtimeMs)
        return true;
  }
  return false;
}
