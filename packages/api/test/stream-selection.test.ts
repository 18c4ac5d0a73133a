import { afterEach, describe, expect, it, vi } from "vitest";
import type { MarketSnapshot } from "../src/market/hub.ts";
import { goldBook } from "./fakes/quote-pump.ts";
import { openRawStream, STREAM_PATH, withInput } from "./raw-stream.ts";
import { manualFeed, startTestServer, type TestServer } from "./server.ts";

let server: TestServer | undefined;
const open: Array<{ destroy(): void }> = [];
afterEach(async () => {
  for (const stream of open.splice(0)) stream.destroy();
  await server?.stop();
  server = undefined;
});

/** A raw SSE reader of `path`, ended after each test. */
function openStream(url: string, path: string, gzip = false) {
  const stream = openRawStream(url, { path, gzip });
  open.push(stream);
  return stream;
}

function silverAndSpot(feed: ReturnType<typeof manualFeed>, tick: number) {
  feed.push({ source: "cme", key: "SI", bid: 31 + tick / 100, ask: 31.05 + tick / 100, ts: tick });
  feed.push({ source: "mcx", key: "SILVER", bid: 91_000 + tick, ask: 91_050 + tick, ts: tick });
  feed.push({ source: "spot", key: "XAUUSD", price: 2640 + tick, ts: tick });
}

describe("a stream of only what the client's screens show", () => {
  it("sends a page that shows gold nothing of the other instruments, in snapshot or deltas", async () => {
    const feed = manualFeed();
    server = await startTestServer({ feed });
    feed.push({ source: "fx", key: "USDINR", price: 84, ts: 1 });
    goldBook(feed, 1);
    silverAndSpot(feed, 1);
    const gold = { keys: ["GC", "GOLD", "USDINR"], symbols: ["GC_BUY", "GC_SELL"] };
    // Plain and gzip: both encodings of the selected view hold only gold.
    const plain = openStream(server.url, withInput(gold));
    const gzip = openStream(server.url, withInput(gold), true);
    const everything = openStream(server.url, STREAM_PATH);
    for (const stream of [plain, gzip, everything])
      await vi.waitFor(() => expect(stream.messages().length).toBeGreaterThan(0), {
        timeout: 15_000,
      });

    // Silver and spot move many times, gold once at the end: by the time gold's last price is
    // in, every silver and spot change has been through the fan-out too.
    for (let tick = 2; tick < 12; tick++) silverAndSpot(feed, tick);
    goldBook(feed, 12);
    for (const stream of [plain, gzip, everything])
      await vi.waitFor(() => expect(stream.state()?.prices.mcx.GOLD?.bid).toBe(72_112), {
        timeout: 15_000,
      });
    expect(everything.state()?.prices.mcx.SILVER?.bid).toBe(91_011);

    for (const stream of [plain, gzip]) {
      const text = stream.text();
      for (const other of ["SILVER", '"SI"', "XAUUSD", "SI_BUY", "SI_SELL", "XAU_SPOT"])
        expect(text).not.toContain(other);
      const state = stream.state() as MarketSnapshot;
      expect(Object.keys(state.prices.cme)).toEqual(["GC"]);
      expect(Object.keys(state.prices.mcx)).toEqual(["GOLD"]);
      expect(state.prices.fx.USDINR?.price).toBe(84);
      expect(Object.keys(state.calculations).sort()).toEqual(["GC_BUY", "GC_SELL", "timestamp"]);
      // Only the one gold change after the snapshot was sent: ten silver steps were not.
      expect(stream.messages().filter((m) => m.kind === "delta")).toHaveLength(1);
    }
  });

  it("refuses unknown instruments, symbols and fields with a 400 naming them", async () => {
    server = await startTestServer({ feed: manualFeed() });
    const cases: Array<[unknown, RegExp]> = [
      [{ keys: ["GOLD", "NOPE"] }, /keys.*"NOPE"/],
      [{ symbols: ["GC_BUY", "ZZ_BUY"] }, /symbols.*"ZZ_BUY"/],
      [{ sections: ["moon"] }, /sections/],
      [{ colour: "red" }, /colour/],
    ];
    for (const [input, error] of cases) {
      const res = await fetch(`${server.url}${withInput(input)}`);
      expect(res.status, JSON.stringify(input)).toBe(400);
      const body = (await res.json()) as { error: string };
      expect(body.error).toMatch(error);
    }
    const res = await fetch(`${server.url}${STREAM_PATH}?input=${encodeURIComponent("{nope")}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/input/);
  });
});
