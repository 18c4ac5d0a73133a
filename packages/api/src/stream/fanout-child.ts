// A stream fan-out process (stream-fanout.ts, docs/architecture.md "Live stream"): the server
// hands it stream sockets and each new version of the hub's state; it runs the same
// SnapshotBroadcaster as the server's own loop would, over the sockets it holds.
import type { Socket } from "node:net";
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
    case "state": {
      const parsed = JSON.parse(command.json) as {
        snapshot: MarketSnapshot;
        owned: Array<[number, OwnedEntries]>;
      };
      state = { snapshot: parsed.snapshot, owned: new Map(parsed.owned), released: [] };
      broadcaster?.touch(command.sections, command.symbols);
      return;
    }
    case "client": {
      if (!socket) return;
      if (!broadcaster) {
        socket.destroy();
        report({ t: "closed", id: command.id });
        return;
      }
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
      return;
    }
    case "close":
      end();
  }
});

/** Ends every stream (their browsers reconnect elsewhere) and lets the process exit. */
function end(): void {
  broadcaster?.close();
  broadcaster = undefined;
  if (process.connected) process.disconnect();
}

// The server went away: so do its streams.
process.on("disconnect", end);
