// A 5-minute or hour candle that spans the server's start continues the one-minute candles stored
// for its bucket before the start (docs/history.md, "The first start"): its open is the bucket's
// first stored minute's open, its high and low span both, in the chart's answer and as written.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { HttpClient } from "./http-client.ts";
import { ADMIN, manualFeed, startTestServer, type TestServer } from "./server.ts";

// USDINR 84 and GC bid 2000 throughout, so GC_BUY = GOLD ask − P (chart.test.ts).
const P = 57254.0494894127;
const at = (hhmm: string, seconds = 0) => Date.parse(`2026-11-20T${hhmm}:00Z`) + seconds * 1_000;
// 09:30 UTC is 15:00 IST: a 5-minute and an hour bucket both start there.
const STORED_MINUTES = [
  { timestamp: at("09:30"), open: 30, high: 40, low: 25, close: 35 },
  { timestamp: at("09:31"), open: 35, high: 50, low: 30, close: 45 },
  { timestamp: at("09:32"), open: 45, high: 47, low: 20, close: 44 },
];

let server: TestServer;
let client: HttpClient;
const feed = manualFeed();

interface Candle {
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

const candles = async (timeframe: string): Promise<Candle[]> =>
  (await client.get(`/api/chart-data/GC_BUY?timeframe=${timeframe}`)).body.data;

/** GOLD's ask at `ts` with the other legs steady: GC_BUY = ask − P. */
function quote(ts: number, goldAsk: number) {
  feed.push({ source: "fx", key: "USDINR", price: 84, ts });
  feed.push({ source: "cme", key: "GC", bid: 2000, ask: 2000.5, ts });
  feed.push({ source: "mcx", key: "GOLD", bid: goldAsk - 20, ask: goldAsk, ts });
}

function expectCandle(actual: Candle | undefined, expected: Candle) {
  expect(actual?.timestamp).toBe(expected.timestamp);
  for (const key of ["open", "high", "low", "close"] as const)
    expect(actual?.[key], key).toBeCloseTo(expected[key], 6);
}

beforeAll(async () => {
  // The history of the bucket's first three minutes is stored (a first start's backfill, a
  // fetch, a run before), and only the minutes: no coarser candle of the bucket yet.
  const before = await startTestServer({ feed: manualFeed() });
  await before.services.store.candles.save(
    STORED_MINUTES.map((c) => ({ symbol: "GC_BUY", timeframe: "1m", ...c })),
  );
  server = await before.restart({ feed });
  client = new HttpClient(server.url);
  expect((await client.post("/api/auth/login", ADMIN)).status).toBe(200);
});
afterAll(() => server.stop());

describe("a coarse candle spanning the start", () => {
  it("opens at the bucket's first stored minute, in the chart's forming candle", async () => {
    quote(at("09:33", 10), P + 45.5);
    quote(at("09:34", 20), P + 75.5);
    const expected = { timestamp: at("09:30"), open: 30, high: 75.5, low: 20, close: 75.5 };
    for (const timeframe of ["5m", "1h"]) {
      const last = await vi.waitFor(
        async () => {
          const c = (await candles(timeframe)).at(-1);
          expect(c?.close).toBeCloseTo(75.5, 6);
          return c;
        },
        { timeout: 30_000, interval: 200 },
      );
      expectCandle(last, expected);
    }
  });

  it("and as written when it closes", async () => {
    quote(at("09:35", 5), P + 40.5);
    const five = await vi.waitFor(
      async () => {
        const all = await candles("5m");
        expect(all.at(-1)?.timestamp).toBe(at("09:35"));
        return all;
      },
      { timeout: 30_000, interval: 200 },
    );
    // The closed 09:30 candle is read from the store now, not from the recorder's memory.
    expectCandle(five.at(-2), {
      timestamp: at("09:30"),
      open: 30,
      high: 75.5,
      low: 20,
      close: 75.5,
    });
    const stored = await server.services.store.candles.recent({
      symbol: "GC_BUY",
      timeframe: "5m",
      limit: 5,
    });
    expectCandle(
      stored.find((c) => c.timestamp === at("09:30")),
      {
        timestamp: at("09:30"),
        open: 30,
        high: 75.5,
        low: 20,
        close: 75.5,
      },
    );
    // The hour goes on from the same open.
    expectCandle((await candles("1h")).at(-1), {
      timestamp: at("09:30"),
      open: 30,
      high: 75.5,
      low: 20,
      close: 40.5,
    });
  });
});
