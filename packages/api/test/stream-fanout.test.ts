// The live stream's writes live in a fan-out process (docs/architecture.md, "Live stream"): the
// server hands it each stream's socket. A process that dies takes its streams with it (their
// browsers reconnect) and another one serves the next streams; the per-address limit and the
// client count follow.
import { afterEach, describe, expect, it, vi } from "vitest";
import { openRawStream } from "./raw-stream.ts";
import { manualFeed, startTestServer, type TestServer } from "./server.ts";

let server: TestServer | undefined;
const open: Array<{ destroy(): void }> = [];
afterEach(async () => {
  for (const stream of open.splice(0)) stream.destroy();
  await server?.stop();
  server = undefined;
});

function openStream(url: string, gzip = false) {
  const stream = openRawStream(url, { gzip });
  open.push(stream);
  return stream;
}

/** What a stream holds of spot XAUUSD's price, once it has any. */
const xau = (stream: ReturnType<typeof openStream>) =>
  (stream.state()?.prices.spot as Record<string, { price?: number }> | undefined)?.XAUUSD?.price;

describe("the stream's fan-out process", () => {
  it("holds the streams: when it dies they end, and a new process serves the next ones", async () => {
    const feed = manualFeed();
    server = await startTestServer({
      feed,
      env: { STREAM_LIMIT_PER_ADDRESS: "2", STREAM_PROCESSES: "1" },
    });
    const { snapshots } = server;
    feed.push({ source: "spot", key: "XAUUSD", price: 2640, ts: 1 });
    const first = openStream(server.url, true);
    const second = openStream(server.url);
    await vi.waitFor(() => expect([xau(first), xau(second)]).toEqual([2640, 2640]), {
      timeout: 30_000,
    });
    const [pid] = snapshots.processIds;
    expect(pid).toBeDefined();
    expect(snapshots.clientCount).toBe(2);

    process.kill(pid as number, "SIGKILL");
    // The sockets were the dead process's alone: the connections end.
    await vi.waitFor(() => expect([first.ended(), second.ended()]).toEqual([true, true]), {
      timeout: 30_000,
    });
    await vi.waitFor(
      () => {
        expect(snapshots.processIds).toHaveLength(1);
        expect(snapshots.processIds[0]).not.toBe(pid);
        expect(snapshots.clientCount).toBe(0);
      },
      { timeout: 30_000 },
    );

    // The ended streams no longer count against the address's limit of 2.
    const third = openStream(server.url, true);
    const fourth = openStream(server.url);
    await vi.waitFor(() => expect([xau(third), xau(fourth)]).toEqual([2640, 2640]), {
      timeout: 30_000,
    });
    feed.push({ source: "spot", key: "XAUUSD", price: 2641, ts: 2 });
    await vi.waitFor(() => expect([xau(third), xau(fourth)]).toEqual([2641, 2641]), {
      timeout: 30_000,
    });
    expect(third.messages().at(-1)?.kind).toBe("delta");
    expect(snapshots.clientCount).toBe(2);
    expect(third.ended() || fourth.ended()).toBe(false);
  });

  it("serves the same stream without one (STREAM_PROCESSES=0)", async () => {
    const feed = manualFeed();
    server = await startTestServer({ feed, env: { STREAM_PROCESSES: "0" } });
    feed.push({ source: "spot", key: "XAUUSD", price: 2640, ts: 1 });
    const stream = openStream(server.url, true);
    await vi.waitFor(() => expect(xau(stream)).toBe(2640), { timeout: 30_000 });
    expect(server.snapshots.processIds).toEqual([]);
    feed.push({ source: "spot", key: "XAUUSD", price: 2641, ts: 2 });
    await vi.waitFor(() => expect(xau(stream)).toBe(2641), { timeout: 30_000 });
  });
});
