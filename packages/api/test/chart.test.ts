import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HttpClient } from "./http-client.ts";
import { ADMIN, FIXTURES, manualFeed, startTestServer, type TestServer } from "./server.ts";
import { FIXED_DAYS_ENV } from "./test-env.ts";

// fixtures/chart-minutes.csv keeps USDINR 84 and GC bid 2000, so parity(GC bid) is
// 57254.0494894127 and GC_BUY = GOLD ask − 57254.0494894127 at each GOLD row:
//   09:15:00 57300 → 45.9505   09:15:20 57310 → 55.9505   09:15:40 57290 → 35.9505
//   09:16:10 57320 → 65.9505   09:16:50 57280 → 25.9505
//   09:19:59 57305 → 50.9505   09:20:00 57330 → 75.9505   09:21:30 57250 → −4.0495
const P = 57254.0494894127;
const at = (hhmm: string) => Date.parse(`2026-11-20T${hhmm}:00Z`);
const candle = (hhmm: string, open: number, high: number, low: number, close: number) => ({
  timestamp: at(hhmm),
  open: open - P,
  high: high - P,
  low: low - P,
  close: close - P,
});
const ONE_MINUTE = [
  candle("09:15", 57300, 57310, 57290, 57290),
  candle("09:16", 57320, 57320, 57280, 57280),
  candle("09:19", 57305, 57305, 57305, 57305),
  candle("09:20", 57330, 57330, 57330, 57330),
  candle("09:21", 57250, 57250, 57250, 57250), // still forming: last
];
// 5-minute buckets 09:15–09:20 and 09:20–09:25 (IST 14:45 and 14:50).
const FIVE_MINUTE = [
  candle("09:15", 57300, 57320, 57280, 57305),
  candle("09:20", 57330, 57330, 57250, 57250),
];

let server: TestServer;
let client: HttpClient;

async function signedIn(s: TestServer) {
  const c = new HttpClient(s.url);
  await c.post("/api/auth/login", ADMIN);
  return c;
}

function expectCandles(actual: unknown[], expected: typeof ONE_MINUTE) {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((want, i) => {
    const got = actual[i] as typeof want;
    expect(got.timestamp).toBe(want.timestamp);
    for (const key of ["open", "high", "low", "close"] as const)
      expect(got[key]).toBeCloseTo(want[key], 9);
  });
}

/** A server that played fixtures/chart-minutes.csv at once on start (REPLAY_SPEED 0). */
async function startReplayed() {
  server = await startTestServer({
    env: {
      ...FIXED_DAYS_ENV,
      FEED: "replay",
      REPLAY_FILE: join(FIXTURES, "chart-minutes.csv"),
      REPLAY_SPEED: "0",
    },
  });
  client = await signedIn(server);
}

describe("GET /api/chart-data/{commodity}", () => {
  // These only read the replayed minutes: one server for them all.
  describe("reading the replayed minutes", () => {
    beforeAll(startReplayed);
    afterAll(() => server.stop());

    it("returns the hand-worked 1-minute candles, oldest first, the forming one last", async () => {
      const res = await client.get(`/api/chart-data/GC_BUY?timeframe=1m&t=${Date.now()}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["data"]);
      expectCandles(res.body.data, ONE_MINUTE);
    });

    it("aggregates 5-minute candles on IST boundaries", async () => {
      expectCandles(
        (await client.get("/api/chart-data/GC_BUY?timeframe=5m")).body.data,
        FIVE_MINUTE,
      );
    });

    it("honours from/to for scripts, and tRPC chart.candles answers the same", async () => {
      const ranged = await client.get(
        `/api/chart-data/GC_BUY?timeframe=1m&from=${at("09:16")}&to=${at("09:20")}`,
      );
      expectCandles(ranged.body.data, ONE_MINUTE.slice(1, 3));
      const input = encodeURIComponent(JSON.stringify({ commodity: "GC_BUY", timeframe: "5m" }));
      const trpc = await client.get(`/api/trpc/chart.candles?input=${input}`);
      expectCandles(trpc.body.result.data.data, FIVE_MINUTE);
    });

    it("an unknown code or timeframe is a 400 listing the valid values; no session is a 401", async () => {
      const code = await client.get("/api/chart-data/PLATINUM_BUY?timeframe=1h");
      expect(code.status).toBe(400);
      expect(code.body.error).toBe(
        'Unknown commodity "PLATINUM_BUY". Valid codes: GC_BUY, GC_SELL, SI_BUY, SI_SELL, HG_BUY, HG_SELL, NG_BUY, NG_SELL, CL_BUY, CL_SELL, XAU_SPOT, XAG_SPOT, NIFTY',
      );
      const timeframe = await client.get("/api/chart-data/GC_BUY?timeframe=2h");
      expect(timeframe).toMatchObject({
        status: 400,
        body: { error: "timeframe must be one of 1m, 5m, 15m, 1h, 4h, 1d" },
      });
      expect(
        (await new HttpClient(server.url).get("/api/chart-data/GC_BUY?timeframe=1h")).status,
      ).toBe(401);
    });

    it("a symbol without data has an empty list", async () => {
      expect((await client.get("/api/chart-data/NIFTY?timeframe=1h")).body).toEqual({ data: [] });
    });
  });

  // These change what the server holds (a roll of a leg, a restart), so each gets a server of
  // its own: the candles the others expect would move.
  describe("changing the history", () => {
    beforeEach(startReplayed);
    afterEach(() => server.stop());

    it("adjust=back shifts every candle before a leg's roll by the gap at it; other values are a 400", async () => {
      // GOLD moved to its next contract at 09:19: the 09:19 candle opens 25 above 09:16's close.
      const { contracts } = server.services.store;
      await contracts.observe("GOLD", "GOLD26NOVFUT", undefined, at("09:00"));
      expect(await contracts.observe("GOLD", "GOLD26DECFUT", undefined, at("09:19"))).toBeDefined();
      const shifted = (c: (typeof ONE_MINUTE)[number]) => ({
        timestamp: c.timestamp,
        open: c.open + 25,
        high: c.high + 25,
        low: c.low + 25,
        close: c.close + 25,
      });
      const back = [...ONE_MINUTE.slice(0, 2).map(shifted), ...ONE_MINUTE.slice(2)];
      const adjusted = await client.get("/api/chart-data/GC_BUY?timeframe=1m&adjust=back");
      expect(adjusted.status).toBe(200);
      expectCandles(adjusted.body.data, back);
      // Without it, as quoted; tRPC takes the same field.
      expectCandles(
        (await client.get("/api/chart-data/GC_BUY?timeframe=1m")).body.data,
        ONE_MINUTE,
      );
      const input = encodeURIComponent(
        JSON.stringify({ commodity: "GC_BUY", timeframe: "1m", adjust: "back" }),
      );
      expectCandles(
        (await client.get(`/api/trpc/chart.candles?input=${input}`)).body.result.data.data,
        back,
      );
      // A roll of a key the symbol is not made of moves nothing.
      expectCandles(
        (await client.get("/api/chart-data/NIFTY?timeframe=1m&adjust=back")).body.data,
        [],
      );
      for (const value of ["forward", "", "BACK"]) {
        const refused = await client.get(`/api/chart-data/GC_BUY?timeframe=1m&adjust=${value}`);
        expect(refused).toMatchObject({
          status: 400,
          body: { error: 'adjust must be "back" (or left out for the candles as quoted)' },
        });
      }
    });

    it("a restart keeps every closed candle and carries the forming minute on", async () => {
      const feed = manualFeed();
      server = await server.restart({ feed });
      client = await signedIn(server);
      expectCandles(
        (await client.get("/api/chart-data/GC_BUY?timeframe=1m")).body.data,
        ONE_MINUTE,
      );
      // The same minute continues after the restart: its open survives, its close moves on.
      feed.push({ source: "fx", key: "USDINR", price: 84, ts: at("09:21") + 40_000 });
      feed.push({ source: "cme", key: "GC", bid: 2000, ask: 2000.5, ts: at("09:21") + 40_000 });
      feed.push({ source: "mcx", key: "GOLD", bid: 57320, ask: 57340, ts: at("09:21") + 45_000 });
      const after = (await client.get("/api/chart-data/GC_BUY?timeframe=1m")).body.data;
      expectCandles(after, [
        ...ONE_MINUTE.slice(0, 4),
        candle("09:21", 57250, 57340, 57250, 57340),
      ]);
    });
  });
});
