// A stream fan-out process (stream-fanout.ts, docs/architecture.md "Live stream"): the server
// hands it stream sockets and each new version of the hub's state; it runs the same
// SnapshotBroadcaster as the server's own loop would, over the sockets it holds.
import { Socket } from "node:net";
import type { HubState, MarketHub, MarketSnapshot, OwnedEntries } from "../market/hub.ts";
import { SnapshotBroadcaster } from "./snapshot-broadcaster.ts";
import type { FanoutCommand, FanoutReport } from "./stream-fanout.ts";
import { StreamSelection } from "./stream-selection.ts";

/** How often the counts for /metrics go back to the server (ms). */
const STATS_EVERY_MS = 250;

let state: HubState | undefined;
/** The server's hub as far as the broadcaster reads it: the latest state sent. */
const hub = {
  state: () => state as HubState,
  // The server publishes held-back values itself when due.
  heldBackUntil: undefined,
} as unknown as MarketHub;

let broadcaster: SnapshotBroadcaster | undefined;
let reported = { messagesSent: 0, bytesSent: 0 };

function report(message: FanoutReport): void {
  // A server going away fails the send: nothing to tell then (its disconnect ends this process).
  if (process.connected) process.send?.(message, undefined, {}, () => {});
}

function reportStats(): void {
  if (!broadcaster) return;
  const { messagesSent, bytesSent } = broadcaster;
  if (messagesSent === reported.messagesSent && bytesSent === reported.bytesSent) return;
  reported = { messagesSent, bytesSent };
  report({ t: "stats", messagesSent, bytesSent });
}

setInterval(reportStats, STATS_EVERY_MS).unref();

process.on("message", (command: FanoutCommand, socket?: Socket) => {
  switch (command.t) {
    case "start":
      broadcaster = new SnapshotBroadcaster(hub, command.options);
      return;
    case "state":
      return;
    case "client": {
      if (!socket) return;
      if (!broadcaster) {
        socket.destroy();
        report({ t: "closed", id: command.id });
        return;
      }
      // Served once the states sent before it are in (they come on the pipe, see below): it
      // starts from the state the server had when it handed it over, as in one process.
      if (statesRead < command.afterStates || state === undefined) {
        waiting.push([command, socket]);
        return;
      }
      adopt(command, socket);
      return;
    }
    case "close":
      end();
  }
});

/** States read from the pipe so far. */
let statesRead = 0;
/** Streams handed over before the states sent ahead of them were read, in order. */
const waiting: Array<[Extract<FanoutCommand, { t: "client" }>, Socket]> = [];

function adopt(command: Extract<FanoutCommand, { t: "client" }>, socket: Socket): void {
  if (!broadcaster) return;
  const { id } = command;
  broadcaster.adopt(socket, {
    head: command.head,
    ownerId: command.ownerId,
    selection:
      command.selection === undefined ? undefined : StreamSelection.fromId(command.selection),
    gzip: command.gzip,
    address: command.address,
    onClose: () => {
      reportStats();
      report({ t: "closed", id });
    },
  });
}

/** A new state (stream-fanout.ts, sendState): a 4-byte length, then the command's JSON. */
function onState(command: Extract<FanoutCommand, { t: "state" }>): void {
  const parsed = JSON.parse(command.json) as {
    snapshot: MarketSnapshot;
    owned: Array<[number, OwnedEntries]>;
  };
  state = { snapshot: parsed.snapshot, owned: new Map(parsed.owned), released: [] };
  statesRead++;
  broadcaster?.touch(command.sections, command.symbols);
  while (
    waiting.length > 0 &&
    (waiting[0] as [{ afterStates: number }, Socket])[0].afterStates <= statesRead
  ) {
    const [client, socket] = waiting.shift() as (typeof waiting)[number];
    adopt(client, socket);
  }
}

const states = new Socket({ fd: 4, readable: true, writable: false });
let pending: Buffer = Buffer.alloc(0);
states.on("data", (chunk: Buffer) => {
  pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
  while (pending.length >= 4) {
    const length = pending.readUInt32BE(0);
    if (pending.length < 4 + length) break;
    const body = pending.subarray(4, 4 + length);
    pending = pending.subarray(4 + length);
    onState(JSON.parse(body.toString("utf8")) as Extract<FanoutCommand, { t: "state" }>);
  }
});
states.on("error", () => {});
// The pipe must not keep this process alive once the server is gone.
states.unref();

/** Ends every stream (their browsers reconnect elsewhere) and lets the process exit. */
function end(): void {
  broadcaster?.close();
  broadcaster = undefined;
  if (process.connected) process.disconnect();
  // Whatever else may hold the loop (a loader's thread, a socket slow to close), this process
  // has no server any more: it leaves once the streams' last chunks had time to go.
  setTimeout(() => process.exit(0), 2000).unref();
}

// The server went away: so do its streams.
process.on("disconnect", end);
