import { afterEach, describe, expect, it, vi } from "vitest";
import type { MarketSnapshot } from "../src/market/hub.ts";
import type { MarketStreamMessage } from "../src/stream/delta.ts";
import { openPausedStream } from "./fakes/paused-stream.ts";
import { goldBook, pumpQuotes } from "./fakes/quote-pump.ts";
import { openRawStream, STREAM_PATH } from "./raw-stream.ts";
import { manualFeed, startTestServer, type TestServer } from "./server.ts";
import { applyMessage, dataEvents } from "./stream-state.ts";

let server: TestServer | undefined;
const open: Array<{ destroy(): void }> = [];
afterEach(async () => {
  for (const stream of open.splice(0)) stream.destroy();
  await server?.stop();
  server = undefined;
});

/** A raw SSE reader of the whole stream, ended after each test. */
function openStream(url: string, gzip = false) {
  const stream = openRawStream(url, { gzip });
  open.push(stream);
  return { ...stream, close: stream.destroy };
}

async function apiState(url: string): Promise<MarketSnapshot> {
  const [prices, calculations] = await Promise.all(
    ["prices", "calculations"].map(async (path) => (await fetch(`${url}/api/${path}`)).json()),
  );
  return { prices, calculations } as MarketSnapshot;
}

describe("market.onSnapshot as a change stream", () => {
  it("sends a snapshot first, then deltas holding exactly the changed entries", async () => {
    const feed = manualFeed();
    server = await startTestServer({ feed });
    feed.push({ source: "fx", key: "USDINR", price: 84, ts: 1 });
    goldBook(feed, 1);
    feed.push({ source: "spot", key: "XAUUSD", price: 2640, ts: 1 });
    const stream = openStream(server.url);
    await vi.waitFor(() => expect(stream.messages()).toHaveLength(1), { timeout: 15_000 });
    const [first] = stream.messages();
    expect(first).toMatchObject({
      kind: "snapshot",
      prices: { spot: { XAUUSD: { price: 2640 } } },
    });
    expect(first?.calculations.GC_BUY).toBeDefined();

    feed.push({ source: "spot", key: "XAUUSD", price: 2641, ts: 2 });
    await vi.waitFor(() => expect(stream.messages()).toHaveLength(2), { timeout: 15_000 });
    // Spot feeds no spread: the delta is that one price and the timestamps (the hub stamps
    // calculations with every quote's time), nothing else.
    expect(stream.messages()[1]).toEqual({
      kind: "delta",
      prices: { spot: { XAUUSD: { price: 2641, timestamp: 2 } }, timestamp: 2 },
      calculations: { timestamp: 2 },
    });

    feed.push({ source: "cme", key: "GC", bid: 2660, ask: 2661, ts: 3 });
    await vi.waitFor(() => expect(stream.messages()).toHaveLength(3), { timeout: 15_000 });
    const delta = stream.messages()[2];
    const api = await apiState(server.url);
    expect(delta).toEqual({
      kind: "delta",
      prices: { cme: { GC: { bid: 2660, ask: 2661, timestamp: 3 } }, timestamp: 3 },
      calculations: {
        GC_BUY: api.calculations.GC_BUY,
        GC_SELL: api.calculations.GC_SELL,
        timestamp: 3,
      },
    });
  });

  it("sends an entry that disappeared as null", async () => {
    const feed = manualFeed();
    server = await startTestServer({ feed });
    feed.push({ source: "fx", key: "USDINR", price: 84, ts: 1 });
    goldBook(feed, 1);
    const stream = openStream(server.url);
    await vi.waitFor(() => expect(stream.messages()).toHaveLength(1), { timeout: 15_000 });
    // A crossed book (bid above ask) has no spread: both gold rows go.
    feed.push({ source: "mcx", key: "GOLD", bid: 72_200, ask: 72_100, ts: 2 });
    await vi.waitFor(() => expect(stream.messages()).toHaveLength(2), { timeout: 15_000 });
    expect(stream.messages()[1]?.calculations).toEqual({
      GC_BUY: null,
      GC_SELL: null,
      timestamp: 2,
    });
    expect(stream.state()).toEqual(await apiState(server.url));
  });

  it("sends a fresh snapshot to a client that reconnects", async () => {
    const feed = manualFeed();
    server = await startTestServer({ feed });
    goldBook(feed, 1);
    const first = openStream(server.url);
    await vi.waitFor(() => expect(first.messages()).toHaveLength(1), { timeout: 15_000 });
    first.close();
    goldBook(feed, 2);
    const again = openStream(server.url);
    await vi.waitFor(() => expect(again.messages()).toHaveLength(1), { timeout: 15_000 });
    expect(again.messages()[0]?.kind).toBe("snapshot");
    expect(again.state()).toEqual(await apiState(server.url));
  });

  it("a delta is a small fraction of the snapshot's bytes", async () => {
    const feed = manualFeed();
    server = await startTestServer({ feed });
    feed.push({ source: "fx", key: "USDINR", price: 84, ts: 1 });
    for (const [cme, mcx] of [
      ["GC", "GOLD"],
      ["SI", "SILVER"],
      ["HG", "COPPER"],
      ["NG", "NATURALGAS"],
      ["CL", "CRUDEOIL"],
    ] as const) {
      feed.push({ source: "cme", key: cme, bid: 10, ask: 10.01, ts: 1 });
      feed.push({ source: "mcx", key: mcx, bid: 900, ask: 901, ts: 1 });
    }
    const stream = openStream(server.url);
    await vi.waitFor(() => expect(stream.frames()).toHaveLength(1), { timeout: 15_000 });
    feed.push({ source: "cme", key: "GC", bid: 10.02, ask: 10.03, ts: 2 });
    await vi.waitFor(() => expect(stream.frames()).toHaveLength(2), { timeout: 15_000 });
    const [snapshot, delta] = stream.frames().map((f) => Buffer.byteLength(f));
    expect(delta).toBeLessThan((snapshot as number) / 3);
  });
});

describe("the change stream in gzip", () => {
  it("decodes to the same state, in a fraction of the plain stream's bytes", async () => {
    const feed = manualFeed();
    server = await startTestServer({ feed });
    goldBook(feed, 0);
    const plain = openStream(server.url);
    const packed = openStream(server.url, true);
    await vi.waitFor(() => expect(packed.messages()).toHaveLength(1), { timeout: 15_000 });
    expect(packed.encoding()).toBe("gzip");
    expect(plain.encoding()).toBeUndefined();
    const stopPumping = pumpQuotes(feed);
    try {
      await vi.waitFor(() => expect(plain.messages().length).toBeGreaterThan(150), 30_000);
    } finally {
      stopPumping();
    }
    const api = await apiState(server.url);
    await vi.waitFor(() => expect(packed.state()).toEqual(api), { timeout: 15_000 });
    await vi.waitFor(() => expect(plain.state()).toEqual(api), { timeout: 15_000 });
    expect(packed.messages().length).toBe(plain.messages().length);
    // Each frame compressed alone would be about half; a quarter takes the shared chain.
    expect(packed.wireBytes()).toBeLessThan(plain.wireBytes() / 4);
  }, 60_000);
});

describe("a client that cannot keep up", () => {
  it("gets merged deltas when it reads again and ends on the server's state", async () => {
    const feed = manualFeed();
    server = await startTestServer({ feed, env: { STREAM_BLOCKED_DROP_SECONDS: "120" } });
    const client = await openPausedStream(`${server.url}${STREAM_PATH}`);
    open.push(client);
    // Quotes with long prices until the paused client's socket is full (the server marks it
    // blocked) and well past that: it must be sent the difference, not every version.
    const fast = openStream(server.url);
    const stopPumping = pumpQuotes(feed, { burst: 20, fxDivisor: 1e6 });
    try {
      await vi.waitFor(() => expect(fast.messages().length).toBeGreaterThan(200), 20_000);
    } finally {
      stopPumping();
    }
    client.resume();
    const body = () => client.received().slice(client.received().indexOf("\r\n\r\n") + 4);
    // Chunked transfer encoding: strip the chunk-size lines before reading the SSE frames.
    const events = () =>
      dataEvents(
        body()
          .replace(/\r\n[0-9a-f]+\r\n/g, "")
          .replace(/^[0-9a-f]+\r\n/, ""),
      );
    const api = await apiState(server.url);
    await vi.waitFor(
      () => {
        const messages = events().map((json) => JSON.parse(json) as MarketStreamMessage);
        expect(messages.reduce<MarketSnapshot | undefined>(applyMessage, undefined)).toEqual(api);
      },
      { timeout: 20_000 },
    );
    // Fewer messages than the fast reader got: what it missed came merged.
    expect(events().length).toBeLessThan(fast.messages().length);
    await vi.waitFor(() => expect(fast.state()).toEqual(api), { timeout: 15_000 });
  }, 60_000);
});
