import { createServer, get, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { constants, createGunzip, inflateRawSync } from "node:zlib";
import type { Quote, SpreadDefinition } from "@spreadwatch/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyMessage, dataEvents } from "../../test/stream-state.ts";
import { loadConfig } from "../config/index.ts";
import { MarketHub, type MarketHubOptions, type MarketSnapshot } from "../market/hub.ts";
import { dutiesFrom } from "../server.ts";
import { builtInDefinitions } from "../spreads/built-ins.ts";
import { userDefinition } from "../spreads/definition-fixture.ts";
import { SpreadRegistry } from "../spreads/registry.ts";
import type { MarketStreamMessage } from "./delta.ts";
import { SnapshotBroadcaster } from "./snapshot-broadcaster.ts";

const duties = dutiesFrom(loadConfig({ DATA_DIR: "/nonexistent" }));
const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step();
});

const RATIO = userDefinition(1, 10, { g: "GOLD", s: "SILVER" }, "g / s");
const CALENDAR = userDefinition(2, 11, { a: "GOLD", b: "GOLD@next" }, "a - b");
const CRUDE = userDefinition(3, 10, { m: "CRUDEOIL", b: "BZ", fx: "USDINR" }, "m - b * fx", true);
const SILVER_CAL = userDefinition(4, 11, { a: "SILVER", b: "SILVER@next" }, "a - b");

/**
 * The broadcaster on a bare node:http server, wired to a hub and registry as composition.ts
 * wires them; a request's `x-owner` header stands for its signed-in user. Every buffer written
 * to a stream's socket is kept under the request's `x-name`.
 */
async function serve(hubOptions: MarketHubOptions = {}) {
  const stored = { list: [RATIO, CALENDAR, CRUDE] };
  const spreads = new SpreadRegistry({
    builtIns: builtInDefinitions(duties),
    load: async () => stored.list,
  });
  await spreads.reload();
  const hub = new MarketHub(duties, undefined, () => true, spreads, hubOptions);
  const broadcaster = new SnapshotBroadcaster(hub, {
    minIntervalMs: 25,
    pingIntervalMs: 60_000,
    reconnectAfterInactivityMs: 120_000,
    limitPerAddress: 0,
    trustedProxies: 0,
    blockedDropAfterMs: 120_000,
  });
  hub.subscribe((update) => broadcaster.onUpdate(update));
  spreads.subscribe((change) => broadcaster.recomputed(hub.spreadsChanged(change)));
  const written = new Map<string, Buffer[]>();
  const server: Server = createServer((req, res) => {
    const name = String(req.headers["x-name"]);
    const writes: Buffer[] = [];
    written.set(name, writes);
    const socket = req.socket as Socket & { write: Socket["write"] };
    const write = socket.write;
    socket.write = function (this: Socket, ...args: Parameters<Socket["write"]>) {
      if (Buffer.isBuffer(args[0])) writes.push(args[0]);
      return write.apply(this, args);
    } as Socket["write"];
    const owner = req.headers["x-owner"];
    broadcaster.handle(req, res, owner === undefined ? undefined : Number(owner));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(() => {
    broadcaster.close();
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  return {
    hub,
    written,
    url: `http://127.0.0.1:${port}/api/trpc/market.onSnapshot`,
    async store(list: SpreadDefinition[]) {
      stored.list = list;
      await spreads.reload();
    },
  };
}

/** A raw SSE reader: the decoded text, its messages and the state they build. */
function openStream(url: string, name: string, owner?: number, gzip = false) {
  let text = "";
  const headers: Record<string, string> = { "x-name": name };
  if (owner !== undefined) headers["x-owner"] = String(owner);
  if (gzip) headers["accept-encoding"] = "gzip";
  const request = get(url, { agent: false, headers }, (res) => {
    const decoded = res.headers["content-encoding"] === "gzip" ? res.pipe(createGunzip()) : res;
    decoded.setEncoding("utf8");
    decoded.on("data", (chunk: string) => {
      text += chunk;
    });
    decoded.on("error", () => {});
  });
  request.on("error", () => {});
  cleanup.push(() => request.destroy());
  const messages = () => dataEvents(text).map((json) => JSON.parse(json) as MarketStreamMessage);
  return {
    text: () => text,
    messages,
    state: () => messages().reduce<MarketSnapshot | undefined>(applyMessage, undefined),
  };
}

/** Every priced leg of the three definitions, moved to tick `n`. */
function tick(hub: MarketHub, n: number) {
  const quotes: Quote[] = [
    { source: "mcx", key: "GOLD", bid: 72_100 + n, ask: 72_120 + n, ts: n },
    { source: "mcx", key: "GOLD@next", bid: 72_600 + n, ask: 72_630 + n, ts: n },
    { source: "mcx", key: "SILVER", bid: 88_000 - n, ask: 88_040 - n, ts: n },
    { source: "mcx", key: "SILVER@next", bid: 88_500, ask: 88_560, ts: n },
    { source: "mcx", key: "CRUDEOIL", bid: 5400 + n, ask: 5402 + n, ts: n },
    { source: "cme", key: "BZ", bid: 64 + n / 100, ask: 64.02 + n / 100, ts: n },
    { source: "fx", key: "USDINR", price: 84 + n / 1e4, ts: n },
  ];
  for (const quote of quotes) hub.ingest(quote);
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
/** As the wire carries it (entries hold their per-lot figures behind a getter). */
const wire = (snapshot: MarketSnapshot) => JSON.parse(JSON.stringify(snapshot));

describe("the stream's private spreads", () => {
  it("reach their owner's tabs only, after everybody's frame shared by every client", async () => {
    const { hub, written, url, store } = await serve();
    tick(hub, 1);
    const anonymous = openStream(url, "anonymous");
    const other = openStream(url, "anonymous-2");
    const ownerTab = openStream(url, "owner-tab", 10);
    const ownerTab2 = openStream(url, "owner-tab-2", 10);
    const owner11 = openStream(url, "owner-11", 11);
    const ownerGzip = openStream(url, "owner-gzip", 10, true);
    const anonymousGzip = openStream(url, "anonymous-gzip", undefined, true);
    const everyone = () => [anonymous, other, ownerTab, ownerTab2, owner11, ownerGzip];
    const caughtUp = async () =>
      vi.waitFor(
        () => {
          expect(anonymous.state()).toEqual(wire(hub.snapshot()));
          expect(other.state()).toEqual(wire(hub.snapshot()));
          expect(ownerTab.state()).toEqual(wire(hub.snapshotFor(10)));
          expect(ownerTab2.state()).toEqual(wire(hub.snapshotFor(10)));
          expect(ownerGzip.state()).toEqual(wire(hub.snapshotFor(10)));
          expect(anonymousGzip.state()).toEqual(wire(hub.snapshot()));
          expect(owner11.state()).toEqual(wire(hub.snapshotFor(11)));
        },
        { timeout: 15_000 },
      );
    await caughtUp();
    // Enough versions, each sent on its own, for the gzip tab to be sent chained frames too.
    for (let n = 2; n <= 60; n++) {
      tick(hub, n);
      await turn();
    }
    await caughtUp();
    expect(ownerTab.state()?.calculations).toHaveProperty("SP1_BUY");
    expect(ownerTab.state()?.calculations).toHaveProperty("SP3_SELL");
    expect(owner11.state()?.calculations).toHaveProperty("SP2_SELL");
    expect(anonymous.state()?.calculations).toHaveProperty("SP3_BUY");
    // Not a byte of another user's private spread, ever.
    for (const stream of [anonymous, other, owner11]) expect(stream.text()).not.toContain("SP1_");
    for (const stream of [anonymous, other, ownerTab, ownerTab2, ownerGzip])
      expect(stream.text()).not.toContain("SP2_");

    // One more version, sent to all at once: the same buffers for everybody and for a user's tabs.
    const before = new Map([...written].map(([name, writes]) => [name, writes.length]));
    tick(hub, 61);
    await vi.waitFor(
      () => {
        for (const [name, writes] of written)
          expect(writes.length, name).toBeGreaterThan(before.get(name) ?? 0);
      },
      { timeout: 15_000 },
    );
    const last = (name: string) => written.get(name)?.at(-1) as Buffer;
    expect(last("anonymous-2")).toBe(last("anonymous"));
    expect(last("owner-tab-2")).toBe(last("owner-tab"));
    // The owner's chunk is everybody's frame and then their own entries' delta.
    const body = (chunk: Buffer) => chunk.subarray(chunk.indexOf("\r\n") + 2, -2).toString();
    expect(body(last("owner-tab")).startsWith(body(last("anonymous")))).toBe(true);
    expect(body(last("owner-tab")).slice(body(last("anonymous")).length)).toContain('"SP1_BUY"');
    expect(body(last("owner-11")).startsWith(body(last("anonymous")))).toBe(true);
    // The gzip tabs are in step with their lane: each is sent the frame compressed against what
    // its lane sent before (it cannot be read on its own), the owner's in the owner's lane.
    const alone = (name: string) => () =>
      inflateRawSync(last(name).subarray(last(name).indexOf("\r\n") + 2, -2), {
        finishFlush: constants.Z_SYNC_FLUSH,
      });
    expect(alone("owner-gzip")).toThrow();
    expect(alone("anonymous-gzip")).toThrow();

    // A private spread added and one deleted: each reaches its owner's open stream, and only it.
    await store([CALENDAR, CRUDE, SILVER_CAL]);
    await caughtUp();
    expect(owner11.state()?.calculations).toHaveProperty("SP4_BUY");
    expect(ownerTab.state()?.calculations).not.toHaveProperty("SP1_BUY");
    expect(ownerGzip.state()?.calculations).not.toHaveProperty("SP1_SELL");
    tick(hub, 62);
    await caughtUp();
    for (const stream of everyone().filter((s) => s !== owner11))
      expect(stream.text()).not.toContain("SP4_");
  });

  it("open with one snapshot that holds the owner's spreads, never a state without them", async () => {
    // Found in the browser: the table showed a private row's figures from the poll, then "–"
    // for as long as the shared snapshot stood alone, then the figures again from the owner's
    // delta just behind it.
    const { hub, url } = await serve();
    tick(hub, 1);
    for (const gzip of [false, true]) {
      const tab = openStream(url, `owner-opens-${gzip}`, 10, gzip);
      await vi.waitFor(() => expect(tab.state()).toEqual(wire(hub.snapshotFor(10))), {
        timeout: 15_000,
      });
      const [first] = tab.messages();
      expect(first?.kind).toBe("snapshot");
      expect(Object.keys(first?.calculations ?? {})).toEqual(
        expect.arrayContaining(["SP1_BUY", "SP1_SELL", "SP3_BUY", "SP3_SELL"]),
      );
      expect(first?.calculations).not.toHaveProperty("SP2_BUY");
    }
  });

  it("get a definition's held-back value once due, though no quote comes after it", async () => {
    const { hub, url } = await serve({ definitionEveryMs: 300 });
    tick(hub, 1);
    const owner = openStream(url, "owner", 10, true);
    const anonymous = openStream(url, "anonymous");
    await vi.waitFor(() => expect(owner.state()?.calculations).toHaveProperty("SP1_BUY"), {
      timeout: 15_000,
    });
    // Two quotes within the interval, then none: the second's value must still arrive.
    tick(hub, 2);
    tick(hub, 3);
    const latest = hub.entry("SP1_BUY");
    await vi.waitFor(
      () => {
        expect(owner.state()?.calculations.SP1_BUY).toEqual(latest);
        expect(anonymous.state()?.calculations.SP3_BUY).toEqual(hub.entry("SP3_BUY"));
        expect(owner.state()).toEqual(wire(hub.snapshotFor(10)));
      },
      { timeout: 5_000 },
    );
  });
});
