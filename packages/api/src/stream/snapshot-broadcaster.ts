import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { QuoteSource } from "@spreadwatch/core";
import { clientAddress } from "../client-address.ts";
import { warnEvery } from "../log.ts";
import type {
  ExecutableSymbol,
  HubState,
  HubUpdate,
  MarketHub,
  MarketSnapshot,
  OwnedEntries,
} from "../market/hub.ts";
import { diffEntries, diffTouched, type MarketStreamMessage, Touched } from "./delta.ts";
import { HeldBackTimer } from "./held-back.ts";
import {
  acceptsGzip,
  type ChainPosition,
  FrameChain,
  GZIP_HEADER,
  packAlone,
  packFor,
} from "./stream-encoding.ts";
import type { StreamSelection } from "./stream-selection.ts";
import { StreamWindow } from "./stream-window.ts";

/** What a client over its stream limit is told to wait before trying again. */
const STREAM_LIMIT_RETRY_AFTER_SECONDS = 30;
/**
 * Published versions kept to build a merged delta from. At ~20 versions a second this is 3 s: a
 * client further behind than that (a long-blocked socket) gets a full snapshot instead.
 */
const RING_VERSIONS = 64;

/** A frame's bytes, and the same compressed alone for gzip clients (made on first use). */
interface Frame {
  plain: Buffer;
  alone?: Buffer;
}

/**
 * A sequence of frames clients receive in the same order, so gzip clients in step share each
 * frame's compression against it (FrameChain): everybody's, or one user's with their private
 * spreads' entries after each of everybody's frames.
 */
interface Lane {
  chain: FrameChain;
  /** The version the chain's latest delta brought its clients to. */
  chainVersion: number;
}

/**
 * What a set of clients asked to receive (docs/http-api.md, "Live stream"): everything, or a
 * selection. Clients of one view share its frames (encoded once per starting version) and its
 * lane, so the same set asked by many clients still costs one encoding per version.
 */
interface View {
  /** "" for everything, else the selection's id. */
  id: string;
  selection: StreamSelection | undefined;
  lane: Lane;
  frames: Map<number | "snapshot", Frame>;
  clients: number;
}

/** A delta with nothing a view asked for: no message at all, the client just moves on. */
const NOTHING: Frame = { plain: Buffer.alloc(0) };

interface Client extends ChainPosition {
  /** Node's response; undefined for a socket handed over by another process (see `adopt`). */
  res: ServerResponse | undefined;
  /** The signed-in user the stream is for, who also receives their private spreads' entries. */
  ownerId: number | undefined;
  /** What it asked to receive. */
  view: View;
  /** The chain this client's gzip position counts in. */
  lane: Lane;
  /**
   * The response's socket once its headers and opening frames are out: later frames go to it
   * directly as ready-made chunks (see `chunkOf`). Undefined while Node still queues the
   * response (a request pipelined behind another), which then goes through `res.write`.
   */
  socket: Socket | undefined;
  /** Sent gzip (the browser asked for it): chained frames when in step, else frames alone. */
  gzip: boolean;
  address: string;
  /** Published version this client's state is at (-1: none yet, it needs a snapshot). */
  sentVersion: number;
  lastSentAt: number;
  /**
   * When the write still waiting in Node for the kernel to take it was made; undefined when the
   * kernel took everything. While one waits the client is sent nothing (see `busy`).
   */
  busySince: number | undefined;
  /**
   * Called once the kernel took everything Node held for it: passed with a write only when the
   * client turned busy (see `write`), and with every write still going through `res.write`.
   */
  flushed: () => void;
  /** Told once when the client is removed (an adopted stream's owner counts it, see `adopt`). */
  onClose?: (() => void) | undefined;
}

/** A stream whose request was read elsewhere (see `adopt`). */
export interface AdoptedStream {
  /** The response head, ending in the blank line; chunked transfer encoding. */
  head: string;
  ownerId: number | undefined;
  selection: StreamSelection | undefined;
  gzip: boolean;
  address: string;
  /** Called once when the stream ends for any reason. */
  onClose?: () => void;
}

export interface BroadcasterOptions {
  /**
   * Under load, at most one message per client per this many ms (docs/design.md §3: 25); while the loop
   * keeps up every version goes out at once (see StreamWindow).
   */
  minIntervalMs: number;
  pingIntervalMs: number;
  /** Told to the client on connect: reconnect when nothing (not even a ping) came this long. */
  reconnectAfterInactivityMs: number;
  /** Live streams one client address may hold; 0 = no limit. */
  limitPerAddress: number;
  /** Reverse proxies whose X-Forwarded-For entries are believed (see clientAddress). */
  trustedProxies: number;
  /**
   * A client whose last write has waited this long for the kernel to take it (its socket's
   * buffers are full) is dropped: it is not reading, and the kernel would otherwise hold its
   * unread frames. A browser that was merely asleep reconnects and gets the latest state.
   */
  blockedDropAfterMs: number;
}

/** The tRPC SSE wire format that httpSubscriptionLink reads. */
const frame = {
  connected: (options: object): Frame => ({
    plain: Buffer.from(`event: connected\ndata: ${JSON.stringify(options)}\n\n`),
  }),
  data: (message: MarketStreamMessage): Frame => ({
    plain: Buffer.from(`data: ${JSON.stringify(message)}\n\n`),
  }),
  ping: { plain: Buffer.from("event: ping\ndata: \n\n") } as Frame,
};

const CRLF = Buffer.from("\r\n");
/** A chunked response's end. */
const LAST_CHUNK = Buffer.from("0\r\n\r\n");
/** Nothing on the wire: written only for its callback (see `write`). */
const EMPTY = Buffer.alloc(0);
/**
 * Each frame's bytes as one HTTP/1.1 chunk (size line, bytes, CRLF), made once per buffer and
 * shared: a client's message is then one `socket.write` of a shared buffer — one syscall, no
 * per-client allocation — where `res.write` corks, queues three pieces and uncorks a tick later.
 */
const chunks = new WeakMap<Buffer, Buffer>();
function chunkOf(bytes: Buffer): Buffer {
  let chunk = chunks.get(bytes);
  if (chunk === undefined) {
    chunk = Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, CRLF]);
    chunks.set(bytes, chunk);
  }
  return chunk;
}

/**
 * Serves `market.onSnapshot` to every browser: a snapshot on connect, then deltas. tRPC's own
 * SSE path serialises and streams per subscriber, which at 1,000 subscribers spent the whole core
 * in JSON and web streams (BENCHMARKS.md); the procedure stays the typed contract, and this
 * writes exactly the frames tRPC would. Each published version's delta is encoded once, shared by
 * every client at the version before; a client that fell behind gets one merged delta from its
 * own version, encoded once per distinct starting version.
 *
 * A frame is never queued behind one the client has not taken: a client whose last write still
 * waits in Node (the kernel's buffers for its socket are full) is skipped, and once that write
 * reaches the kernel it is sent one delta from what it has to the latest state. Otherwise every
 * version goes out at once; only while the fan-out itself lags the event loop are a client's
 * changes folded into one message per window (StreamWindow), leading edge first.
 */
export class SnapshotBroadcaster {
  private readonly clients = new Set<Client>();
  private readonly streamsByAddress = new Map<string, number>();
  /** Published version: bumped when a flush finds the hub changed since the last one. */
  private version = 0;
  private hubChanged = true;
  /**
   * The recent published versions, oldest first (at most RING_VERSIONS): each one's snapshot and
   * what changed since the version before, so a delta compares only those entries.
   */
  private readonly ring: Array<{
    version: number;
    snapshot: MarketSnapshot;
    owned: HubState["owned"];
    touched: Touched;
  }> = [];
  /** What the hub changed since the last published version. */
  private touched = new Touched();
  private readonly window: StreamWindow;
  /**
   * Per view with a stream open (everything is always there): its encoded frames for the current
   * version ("snapshot", or the delta from a version) and the lane its up-to-date gzip clients
   * receive in order (each version's delta, and the pings).
   */
  private readonly views = new Map<string, View>([["", newView("", undefined)]]);
  /**
   * Per user with private spreads and a stream open, and view: their lane, and their frames for
   * the current version (the view's frame and their own entries' delta after it, by starting
   * version), made once and shared by that user's tabs with that view.
   */
  private readonly owners = new Map<
    string,
    { lane: Lane; clients: number; frames: Map<number | "snapshot", Frame> }
  >();
  private readonly connected: Frame;
  private timer: NodeJS.Timeout | undefined;
  private readonly heldBack: HeldBackTimer;
  private flushQueued = false;
  private readonly pinger: NodeJS.Timeout;
  /** Snapshots and deltas sent, and every byte written to clients, for /metrics. */
  messagesSent = 0;
  bytesSent = 0;
  /** Clients whose last write waits in Node, for the drop rule (see `sweep`). */
  private readonly busy = new Set<Client>();
  private readonly dropSweep: NodeJS.Timeout;

  constructor(
    private readonly hub: MarketHub,
    private readonly options: BroadcasterOptions,
  ) {
    this.connected = frame.connected({
      reconnectAfterInactivityMs: options.reconnectAfterInactivityMs,
    });
    this.pinger = setInterval(() => this.ping(), options.pingIntervalMs);
    this.pinger.unref();
    // A quarter of the drop window: a client is dropped at most a quarter late.
    const sweepEvery = Math.max(50, Math.min(1000, options.blockedDropAfterMs / 4));
    this.dropSweep = setInterval(() => this.sweep(), sweepEvery);
    this.dropSweep.unref();
    this.window = new StreamWindow(options.minIntervalMs);
    this.heldBack = new HeldBackTimer(hub, () => this.changed());
  }

  /** Every accepted quote, on every instance (composition.ts wires the hub to it). */
  onUpdate(update: HubUpdate): void {
    this.touched.add(update.quote, update.symbols);
    this.changed();
  }

  /**
   * Spread definitions were added, changed or removed (composition.ts): their symbols' entries
   * are compared at the next send, private ones in their owner's frames.
   */
  recomputed(symbols: readonly ExecutableSymbol[]): void {
    this.touched.recomputed(symbols);
    this.changed();
  }

  /**
   * The hub forgot a key of `source` (an instrument taken out of use, composition.ts): every
   * client is sent its entry as gone, so it leaves open browsers too.
   */
  forgot(source: QuoteSource): void {
    this.touched.forget(source);
    this.changed();
  }

  private changed(): void {
    this.hubChanged = true;
    // Feeds deliver a burst of quotes in one go (a simulator step, a socket frame): send once
    // the burst is in, still in the same turn of the event loop, not on its first quote.
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      this.flush();
    });
  }

  /** The coalescing window in force now (ms): 0, or docs/design.md §3's 25 while the fan-out lags. */
  get intervalMs(): number {
    return this.window.current;
  }

  get clientCount(): number {
    return this.clients.size;
  }

  /**
   * Serves one stream. `ownerId` is the signed-in user it is for (undefined: nobody signed in):
   * they receive everybody's frames and their own private spreads' entries, no one else's.
   */
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    ownerId?: number,
    selection?: StreamSelection,
  ): void {
    const address = admitStream(req, res, this.options, this.streamsByAddress);
    if (address === undefined) return;
    const gzip = acceptsGzip(req.headers["accept-encoding"]);
    res.writeHead(200, streamHeaders(gzip));
    const view = this.view(selection);
    const client: Client = {
      res,
      ownerId,
      view,
      lane: view.lane,
      socket: undefined,
      gzip,
      chainSeq: -1,
      runStart: 0,
      address,
      sentVersion: -1,
      lastSentAt: Number.NEGATIVE_INFINITY,
      busySince: undefined,
      flushed: () => this.flushed(client),
    };
    if (gzip) res.write(GZIP_HEADER);
    res.write(this.encode(client, this.connected));
    this.add(client);
    req.on("close", () => this.remove(client));
    this.publish();
    this.send(client, performance.now());
    // Node has written the headers and chose chunked framing, straight into the socket (a
    // response holds `socket` only while it is the connection's current one): what follows may
    // go to the socket after them. Otherwise (HTTP/1.0, no chunks) res.write stays.
    if (res.socket && res.chunkedEncoding) client.socket = res.socket;
  }

  /**
   * Serves one stream on a bare socket whose request another process read and checked (the
   * fan-out process, docs/architecture.md "Live stream"): `head` is the response head it made,
   * chunked. The per-address limit was counted there too.
   */
  adopt(socket: Socket, stream: AdoptedStream): void {
    const view = this.view(stream.selection);
    const client: Client = {
      res: undefined,
      ownerId: stream.ownerId,
      view,
      lane: view.lane,
      socket,
      gzip: stream.gzip,
      chainSeq: -1,
      runStart: 0,
      address: stream.address,
      sentVersion: -1,
      lastSentAt: Number.NEGATIVE_INFINITY,
      busySince: undefined,
      flushed: () => this.flushed(client),
      onClose: stream.onClose,
    };
    // A reset peer is a closed stream, never an uncaught error.
    socket.on("error", () => socket.destroy());
    socket.on("close", () => this.remove(client));
    // Nothing a client sends after its request matters; reading finds its end of stream.
    socket.resume();
    if (socket.destroyed) return;
    socket.write(stream.head);
    if (stream.gzip) socket.write(chunkOf(GZIP_HEADER));
    socket.write(chunkOf(this.encode(client, this.connected)));
    this.add(client);
    this.publish();
    this.send(client, performance.now());
  }

  /**
   * What changed since the last call, as another process's hub reported it (the fan-out
   * process's feed, see stream-fanout.ts): the same as the quotes' `onUpdate` calls would add.
   */
  touch(sections: Iterable<string>, symbols: Iterable<ExecutableSymbol>): void {
    this.touched.addNamed(sections, symbols);
    this.changed();
  }

  private view(selection: StreamSelection | undefined): View {
    const id = selection?.id ?? "";
    let view = this.views.get(id);
    if (view === undefined) {
      view = newView(id, selection);
      this.views.set(id, view);
    }
    return view;
  }

  private add(client: Client): void {
    this.clients.add(client);
    client.view.clients++;
    if (client.ownerId !== undefined) this.owner(client).clients++;
    this.streamsByAddress.set(client.address, (this.streamsByAddress.get(client.address) ?? 0) + 1);
  }

  private remove(client: Client): void {
    if (!this.clients.delete(client)) return;
    client.onClose?.();
    this.busy.delete(client);
    const ownerKey = client.ownerId === undefined ? undefined : ownerKeyOf(client);
    const owner = ownerKey === undefined ? undefined : this.owners.get(ownerKey);
    if (owner && --owner.clients === 0) this.owners.delete(ownerKey as string);
    if (--client.view.clients === 0 && client.view.id !== "") this.views.delete(client.view.id);
    const left = (this.streamsByAddress.get(client.address) ?? 1) - 1;
    if (left > 0) this.streamsByAddress.set(client.address, left);
    else this.streamsByAddress.delete(client.address);
  }

  /** Ends every stream (the browsers reconnect to the next server) and stops listening. */
  close(): void {
    this.window.close();
    clearInterval(this.pinger);
    clearInterval(this.dropSweep);
    clearTimeout(this.timer);
    this.heldBack.clear();
    for (const client of this.clients) {
      if (client.res) client.res.end();
      // The last chunk, as res.end() writes it: the browser sees a clean end and reconnects.
      else client.socket?.end(LAST_CHUNK);
    }
    this.clients.clear();
    this.owners.clear();
    this.busy.clear();
    this.streamsByAddress.clear();
  }

  /** Makes the hub's state a new version when it changed; old versions' frames are let go. */
  private publish(): void {
    if (!this.hubChanged) return;
    this.hubChanged = false;
    this.version++;
    const { snapshot, owned, released } = this.hub.state();
    this.touched.recomputed(released);
    this.ring.push({ version: this.version, snapshot, owned, touched: this.touched });
    this.heldBack.schedule();
    this.touched = new Touched();
    if (this.ring.length > RING_VERSIONS) this.ring.shift();
    for (const view of this.views.values()) view.frames.clear();
    for (const owner of this.owners.values()) owner.frames.clear();
  }

  private owner(client: Client) {
    const key = ownerKeyOf(client);
    let owner = this.owners.get(key);
    if (owner === undefined) {
      owner = {
        lane: { chain: new FrameChain(), chainVersion: -1 },
        clients: 0,
        frames: new Map(),
      };
      this.owners.set(key, owner);
    }
    return owner;
  }

  /** Where a client's next frame starts from: its version, or a snapshot when it has none. */
  private startOf(version: number): number | "snapshot" {
    return version >= (this.ring[0]?.version ?? 0) ? version : "snapshot";
  }

  /**
   * A client's next frame and the lane it goes in. Everybody's frame, and for a user with
   * private spreads that frame followed by their entries' delta (when any changed), or one
   * snapshot with their entries in it for a client starting afresh, in their own lane; made once
   * per user and starting version. A user whose last private spread went is sent
   * its entries' removal once, then is back in everybody's lane.
   */
  private frameFor(client: Client): { f: Frame; lane: Lane } {
    const view = client.view;
    const shared = this.frameFrom(client.sentVersion, view);
    if (client.ownerId === undefined) return { f: shared, lane: view.lane };
    const owner = this.owner(client);
    const current = this.ring.at(-1) as (typeof this.ring)[number];
    const now = current.owned.get(client.ownerId);
    const from = this.startOf(client.sentVersion);
    let f = owner.frames.get(from);
    if (f === undefined) {
      if (from === "snapshot") {
        f =
          now === undefined || now === NO_ENTRIES
            ? shared
            : ownSnapshot(current.snapshot, now, view.selection);
      } else {
        const base = this.ring[from - (this.ring[0]?.version ?? 0)];
        const changes = diffEntries(
          base?.owned.get(client.ownerId) ?? NO_ENTRIES,
          now ?? NO_ENTRIES,
        );
        const own = changes && ownEntries(changes, current.snapshot, view.selection);
        f = own ? joined(shared, own) : shared;
      }
      owner.frames.set(from, f);
    }
    return { f, lane: now === undefined ? view.lane : owner.lane };
  }

  /** The bytes of `f` for this client: as is, or gzip (chained when the client is in step). */
  private encode(client: Client, f: Frame): Buffer {
    if (!client.gzip) return f.plain;
    return packFor(client.lane.chain, client, f.plain, () => {
      f.alone ??= packAlone(f.plain);
      return f.alone;
    });
  }

  /**
   * The bytes that bring a client from its version to the current one, encoded once per starting
   * version. A client with no state, or older than the ring, gets the whole snapshot.
   */
  private frameFrom(version: number, view: View): Frame {
    const current = this.ring.at(-1) as { snapshot: MarketSnapshot };
    const oldest = this.ring[0]?.version ?? 0;
    const from = this.startOf(version);
    let bytes = view.frames.get(from);
    if (bytes === undefined) {
      const base = from === "snapshot" ? undefined : this.ring[from - oldest]?.snapshot;
      const message: MarketStreamMessage = base
        ? diffTouched(base, current.snapshot, this.touchedSince(from as number))
        : { kind: "snapshot", ...current.snapshot };
      bytes = selectedFrame(message, view.selection) ?? NOTHING;
      view.frames.set(from, bytes);
    }
    return bytes;
  }

  /** What changed after `version` up to the current one (one set in the steady state). */
  private touchedSince(version: number): Touched {
    const start = version - (this.ring[0]?.version ?? 0) + 1;
    if (start === this.ring.length - 1) return (this.ring[start] as { touched: Touched }).touched;
    const union = new Touched();
    for (let i = start; i < this.ring.length; i++)
      union.addAll((this.ring[i] as { touched: Touched }).touched);
    return union;
  }

  /**
   * Sends the latest state to every client that lacks it and may receive now: its socket took
   * everything sent before, and its window (if open) has passed. Waits for the rest.
   */
  private flush(): void {
    this.publish();
    const now = performance.now();
    const window = this.window.current;
    let wait = Number.POSITIVE_INFINITY;
    for (const client of this.clients) {
      if (client.sentVersion === this.version || client.busySince !== undefined) continue;
      const elapsed = now - client.lastSentAt;
      if (elapsed >= window) this.send(client, now);
      else wait = Math.min(wait, window - elapsed);
    }
    this.window.wrote(performance.now() - now);
    this.flushIn(wait);
  }

  /** Runs a flush after `wait` ms unless one is due sooner (nothing when it is infinite). */
  private flushIn(wait: number): void {
    if (wait === Number.POSITIVE_INFINITY || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
  }

  /**
   * What Node held for this client reached the kernel. When nothing of ours waits for it any more and it missed versions meanwhile, it gets
   * the one delta that brings it to the latest state now, not on the next quote.
   */
  private flushed(client: Client): void {
    if (client.busySince === undefined || this.pending(client) > 0) return;
    client.busySince = undefined;
    this.busy.delete(client);
    if (client.sentVersion === this.version || !this.clients.has(client)) return;
    const now = performance.now();
    const elapsed = now - client.lastSentAt;
    const window = this.window.current;
    if (elapsed < window) {
      this.flushIn(window - elapsed);
      return;
    }
    this.send(client, now);
    this.window.wrote(performance.now() - now);
  }

  /** Bytes of ours Node still holds for this client (the kernel did not take them yet). */
  private pending(client: Client): number {
    return (client.socket ?? (client.res as ServerResponse)).writableLength;
  }

  private send(client: Client, now: number): void {
    const { f, lane } = this.frameFor(client);
    // Nothing it asked for changed: it is at the latest version all the same.
    if (f === NOTHING) {
      client.sentVersion = this.version;
      return;
    }
    // A client moving to another lane starts a run in it (its history is not that chain's).
    if (client.lane !== lane) {
      client.lane = lane;
      client.chainSeq = -1;
    }
    // The first client to leave the chain's version extends the chain with its delta; every
    // other client at that version that is sent now gets the very same frame, chained. A client
    // ahead of the chain (the chain's clients all left) takes the chain along with it.
    if (client.sentVersion >= lane.chainVersion) {
      if (lane.chainVersion !== this.version) lane.chain.push(f.plain);
      lane.chainVersion = this.version;
    }
    const bytes = this.encode(client, f);
    this.messagesSent++;
    client.sentVersion = this.version;
    client.lastSentAt = now;
    this.write(client, bytes);
  }

  /**
   * One frame to one client. When the kernel did not take all of it (the socket's buffers are
   * full), the client is busy: nothing more is written until `flushed`, so what it is sent next
   * is the latest state, never a queue of frames behind this one.
   */
  private write(client: Client, bytes: Buffer): void {
    const socket = client.socket;
    this.bytesSent += bytes.length;
    if (socket === undefined) client.res?.write(bytes, client.flushed);
    // A socket already ended or gone (its close event not yet run) takes nothing.
    else if (socket.writable) socket.write(chunkOf(bytes));
    else return;
    if (this.pending(client) > 0) {
      client.busySince = performance.now();
      this.busy.add(client);
      // Told when the kernel has taken it all: an empty write's callback runs after the bytes
      // queued before it. A callback on every write cost a tick, a closure call and a write
      // request's bookkeeping per client per message: ~4 % of the fan-out pass in a profile at
      // 10,000 clients, where the kernel's write itself is 57 %.
      if (socket !== undefined) socket.write(EMPTY, client.flushed);
    }
  }

  /** Drops the clients whose last write has waited longer than the drop window. */
  private sweep(): void {
    const now = performance.now();
    for (const client of this.busy) {
      if (now - (client.busySince as number) >= this.options.blockedDropAfterMs) this.drop(client);
    }
  }

  private drop(client: Client): void {
    // Once a minute at most: a crowd of non-readers must not flood the log either.
    warnEvery(
      "stream-client-dropped",
      60_000,
      { address: client.address, blockedForMs: this.options.blockedDropAfterMs },
      "dropped a stream client that stopped reading",
    );
    this.remove(client);
    // A reset, not a FIN: a closed socket would keep its unsent snapshots in the kernel until the
    // peer read them, which it will not.
    const socket = client.res ? client.res.socket : client.socket;
    if (socket) socket.resetAndDestroy();
    else client.res?.destroy();
  }

  private ping(): void {
    const started = performance.now();
    // Every reading client gets the ping at this point of its stream: it joins the chains too.
    for (const view of this.views.values()) view.lane.chain.push(frame.ping.plain);
    for (const owner of this.owners.values()) owner.lane.chain.push(frame.ping.plain);
    for (const client of this.clients) {
      if (client.busySince === undefined) this.write(client, this.encode(client, frame.ping));
    }
    this.window.wrote(performance.now() - started);
  }
}

const NO_ENTRIES: OwnedEntries = {};

function newView(id: string, selection: StreamSelection | undefined): View {
  return {
    id,
    selection,
    lane: { chain: new FrameChain(), chainVersion: -1 },
    frames: new Map(),
    clients: 0,
  };
}

/** A user's frames and lane are per view too: two tabs asking for different sets differ. */
function ownerKeyOf(client: Client): string {
  return `${client.ownerId}\n${client.view.id}`;
}

/**
 * A user's own entries that changed (those the view asked for), as a delta message of its own
 * (prices unchanged); undefined when the view wants none of them.
 */
function ownEntries(
  changes: Record<string, object | null>,
  snapshot: MarketSnapshot,
  selection: StreamSelection | undefined,
): Frame | undefined {
  const message = {
    kind: "delta",
    prices: { timestamp: snapshot.prices.timestamp },
    calculations: { ...changes, timestamp: snapshot.calculations.timestamp },
  } as MarketStreamMessage;
  return selectedFrame(message, selection);
}

/**
 * A user's whole state as one snapshot: everybody's entries with theirs among them. Not the shared
 * snapshot followed by their entries' delta: a client shows each message as it comes, and their
 * rows would go blank between the two.
 */
function ownSnapshot(
  snapshot: MarketSnapshot,
  owned: Readonly<Record<string, object>>,
  selection: StreamSelection | undefined,
): Frame {
  const message = {
    kind: "snapshot",
    prices: snapshot.prices,
    calculations: { ...snapshot.calculations, ...owned },
  } as MarketStreamMessage;
  return selectedFrame(message, selection) ?? NOTHING;
}

/** The part of `message` a view asked for, encoded; undefined when it asked for none of it. */
function selectedFrame(
  message: MarketStreamMessage,
  selection: StreamSelection | undefined,
): Frame | undefined {
  const selected = selection ? selection.select(message) : message;
  return selected ? frame.data(selected) : undefined;
}

/** Two frames as one write: everybody's bytes shared, then one user's. */
function joined(shared: Frame, own: Frame): Frame {
  return { plain: Buffer.concat([shared.plain, own.plain]) };
}

/** A stream response's own headers. */
export function streamHeaders(gzip: boolean): Record<string, string> {
  return {
    "content-type": "text/event-stream",
    "cache-control": "no-cache, no-transform",
    "x-accel-buffering": "no",
    connection: "keep-alive",
    vary: "accept-encoding",
    ...(gzip && { "content-encoding": "gzip" }),
  };
}

/**
 * The address a new stream is counted under, or undefined when it is not served: gone while its
 * session was being read, or its address already holds `limitPerAddress` streams (answered 429).
 * The server's own broadcaster and the fan-out processes' front (stream-fanout.ts) admit alike.
 */
export function admitStream(
  req: IncomingMessage,
  res: ServerResponse,
  options: Pick<BroadcasterOptions, "trustedProxies" | "limitPerAddress">,
  streamsByAddress: ReadonlyMap<string, number>,
): string | undefined {
  if (res.destroyed || req.socket.destroyed) return undefined;
  const address = clientAddress(req, options.trustedProxies);
  const limit = options.limitPerAddress;
  if (limit > 0 && (streamsByAddress.get(address) ?? 0) >= limit) {
    refuseOverLimit(res, limit);
    return undefined;
  }
  return address;
}

/** 429 with a JSON body, as every other error of the API (docs/design.md §3). */
function refuseOverLimit(res: ServerResponse, limit: number): void {
  const body = JSON.stringify({
    error: `Too many live streams from this address (at most ${limit}); close one and try again.`,
  });
  res.writeHead(429, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "retry-after": String(STREAM_LIMIT_RETRY_AFTER_SECONDS),
    "cache-control": "no-store",
  });
  res.end(body);
}
