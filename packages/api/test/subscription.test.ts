import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTRPCClient, httpSubscriptionLink } from "@trpc/client";
import { EventSource } from "eventsource";
import { afterEach, describe, expect, it } from "vitest";
import { createContextInner } from "../src/context.ts";
import type { MarketSnapshot } from "../src/market/hub.ts";
import { type AppRouter, createCaller } from "../src/router.ts";
import type { MarketStreamMessage } from "../src/stream/delta.ts";
import { listeningUrl, manualFeed, runMain, startTestServer, type TestServer } from "./server.ts";
import { applyMessage } from "./stream-state.ts";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

function subscribe(url: string) {
  const client = createTRPCClient<AppRouter>({
    links: [httpSubscriptionLink({ url: `${url}/api/trpc`, EventSource })],
  });
  /** The state after each message, as a browser folding the deltas in would hold it. */
  const received: MarketSnapshot[] = [];
  const messages: MarketStreamMessage[] = [];
  const waiters: Array<() => void> = [];
  let ended = false;
  const subscription = client.market.onSnapshot.subscribe(undefined, {
    onData: (message) => {
      messages.push(message);
      received.push(applyMessage(received.at(-1), message));
      for (const wake of waiters.splice(0)) wake();
    },
    onComplete: () => {
      ended = true;
      for (const wake of waiters.splice(0)) wake();
    },
    onError: () => {
      ended = true;
      for (const wake of waiters.splice(0)) wake();
    },
  });
  /** Waits until a received snapshot satisfies the predicate (no clock involved). */
  const until = async (predicate: (s: MarketSnapshot) => boolean) => {
    while (!received.some(predicate)) {
      if (ended) throw new Error("subscription ended");
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
    return received.find(predicate) as MarketSnapshot;
  };
  return {
    received,
    messages,
    until,
    unsubscribe: () => subscription.unsubscribe(),
    isEnded: () => ended,
  };
}

describe("market.onSnapshot over SSE", () => {
  it("sends the current snapshot first, then every change", async () => {
    const feed = manualFeed();
    server = await startTestServer({ feed });
    feed.push({ source: "fx", key: "USDINR", price: 84, ts: 1_000 });
    const client = subscribe(server.url);
    const first = await client.until(() => true);
    expect(first.prices.fx.USDINR).toEqual({ price: 84, timestamp: 1_000 });

    feed.push({ source: "cme", key: "NG", bid: 3, ask: 3.002, ts: 2_000 });
    feed.push({ source: "mcx", key: "NATURALGAS", bid: 252.3, ask: 252.5, ts: 3_000 });
    const withSpread = await client.until((s) => s.calculations.NG_BUY !== undefined);
    expect(withSpread.calculations.NG_BUY?.spread).toBeCloseTo(0.5, 9);
    expect(withSpread.calculations.timestamp).toBe(3_000);
    client.unsubscribe();
  });

  it("folds a burst of quotes into far fewer messages, ending on the final state", async () => {
    const feed = manualFeed();
    server = await startTestServer({ feed });
    const client = subscribe(server.url);
    await client.until(() => true);
    const before = client.received.length;
    for (let i = 1; i <= 500; i++)
      feed.push({ source: "fx", key: "USDINR", price: 80 + i / 100, ts: i });
    const last = await client.until((s) => s.prices.fx.USDINR?.timestamp === 500);
    expect(last.prices.fx.USDINR?.price).toBe(85);
    // 500 synchronous quotes land within one 25 ms window: at most a leading and a trailing message.
    expect(client.received.length - before).toBeLessThanOrEqual(2);
    client.unsubscribe();
  });

  it("fifty subscribers each end on the final state of a burst, and the stream speaks tRPC's frames", async () => {
    const feed = manualFeed();
    // All fifty come from 127.0.0.1: without this the per-address limit (20) refuses the rest.
    server = await startTestServer({ feed, env: { STREAM_LIMIT_PER_ADDRESS: "0" } });
    const clients = Array.from({ length: 50 }, () => subscribe((server as TestServer).url));
    await Promise.all(clients.map((c) => c.until(() => true)));
    for (let i = 1; i <= 200; i++)
      feed.push({ source: "fx", key: "USDINR", price: 80 + i / 100, ts: i });
    const finals = await Promise.all(
      clients.map((c) => c.until((s) => s.prices.fx.USDINR?.timestamp === 200)),
    );
    for (const snapshot of finals) expect(snapshot.prices.fx.USDINR?.price).toBe(82);
    for (const c of clients) c.unsubscribe();

    const raw = await fetch(`${server.url}/api/trpc/market.onSnapshot`);
    expect(raw.headers.get("content-type")).toBe("text/event-stream");
    const reader = (raw.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.includes("\n\ndata: "))
      text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toMatch(
      /^event: connected\ndata: \{"reconnectAfterInactivityMs":12000\}\n\ndata: \{"kind":"snapshot","prices":/,
    );
    await reader.cancel();
  });

  it("each subscriber gets the same snapshot object per version (no per-client copies)", async () => {
    const feed = manualFeed();
    server = await startTestServer({ feed });
    feed.push({ source: "fx", key: "USDINR", price: 84, ts: 1 });
    expect(server.hub.snapshot()).toBe(server.hub.snapshot());
    feed.push({ source: "fx", key: "USDINR", price: 85, ts: 2 });
    expect(server.hub.snapshot().prices.fx.USDINR?.price).toBe(85);
  });
});

describe("market.onSnapshot in process (a caller, no HTTP)", () => {
  it("yields the snapshot now and the delta after each change, and ends when aborted", async () => {
    const feed = manualFeed();
    server = await startTestServer({ feed });
    const abort = new AbortController();
    const caller = createCaller(createContextInner(server.services), { signal: abort.signal });
    const stream = (await caller.market.onSnapshot()) as AsyncIterable<MarketStreamMessage>;
    const iterator = stream[Symbol.asyncIterator]();
    const first = (await iterator.next()).value;
    expect(first?.kind).toBe("snapshot");
    expect(first?.prices.fx.USDINR).toBeUndefined();
    const next = iterator.next();
    feed.push({ source: "fx", key: "USDINR", price: 84, ts: 1_000 });
    expect((await next).value).toEqual({
      kind: "delta",
      prices: { fx: { USDINR: { price: 84, timestamp: 1_000 } }, timestamp: 1_000 },
      calculations: { timestamp: 1_000 },
    });
    const ended = iterator.next();
    abort.abort();
    expect((await ended).done).toBe(true);
  });
});

describe("shutdown", () => {
  // A first start backfills the simulated past: a day here (the history kept), as nothing reads
  // it; generous on a busy machine.
  it("SIGTERM ends open streams and exits 0", { timeout: 200_000 }, async () => {
    // Its own directory: a fixed path is shared with every other checkout's runs (and schemas).
    const dataDir = mkdtempSync(join(tmpdir(), "spreadwatch-shutdown-"));
    const main = runMain({ FEED: "simulator", DATA_DIR: dataDir, HISTORY_RETENTION_DAYS: "1" });
    const url = await listeningUrl(main);
    const client = subscribe(url);
    await client.until(() => true);
    main.child.kill("SIGTERM");
    expect(await main.exited).toBe(0);
    expect(main.stdout()).toContain("SIGTERM received, shutting down");
    client.unsubscribe();
    rmSync(dataDir, { recursive: true, force: true });
  });
});
