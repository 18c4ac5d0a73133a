import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient } from "./http-client.ts";
import { ADMIN, FIXTURES, startTestServer, type TestServer } from "./server.ts";
import { FIXED_DAYS_ENV } from "./test-env.ts";

// fixtures/stats-minutes.csv, worked by hand. USDINR 84 and GC bid 2000.0 throughout, so
// GC_BUY = GOLD ask − P with P = parity(2000.0) = 57254.0494894127 (rest-market.test.ts).
// Minutes 09:15–09:18 close (the 09:16 candle at its later quote) with asks 57300, 57310,
// 57290, 57320; 09:19 (ask 57300) is still forming, so it is the live value, not a close.
// With d = ask − 57300: closes 0, 10, −10, 20 → mean 5; deviations −5, 5, −15, 15 → Σ² 500,
// population variance 125, std √125 = 11.180339887498949; live d = 0 → z = −5/√125 =
// −1/√5 = −0.4472135954999579; closes ≤ live: 0 and −10 → percentile 50.
const P = 57254.0494894127;
const at = (iso: string) => Date.parse(iso);
const LATEST_OPEN = at("2026-11-20T09:18:00Z");
const DAY = 86_400_000;

let server: TestServer;
let client: HttpClient;

beforeAll(async () => {
  server = await startTestServer({
    env: {
      ...FIXED_DAYS_ENV,
      FEED: "replay",
      REPLAY_FILE: join(FIXTURES, "stats-minutes.csv"),
      REPLAY_SPEED: "0",
    },
  });
  client = new HttpClient(server.url);
  await client.post("/api/auth/login", ADMIN);
});
afterAll(() => server.stop());

describe("GET /api/spread-stats/:symbol", () => {
  it("answers the 20-day statistics of the closed minutes with the live value placed in them", async () => {
    const { status, body } = await client.get("/api/spread-stats/GC_BUY?days=20");
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(
      [
        "coverage",
        "days",
        "from",
        "max",
        "mean",
        "min",
        "n",
        "percentile",
        "std",
        "symbol",
        "to",
        "value",
        "z",
      ].sort(),
    );
    expect(body.symbol).toBe("GC_BUY");
    expect(body.days).toBe(20);
    expect(body.n).toBe(4);
    expect(body.value).toBeCloseTo(57300 - P, 9);
    expect(body.mean).toBeCloseTo(57305 - P, 9);
    expect(body.std).toBeCloseTo(11.180339887498949, 9);
    expect(body.z).toBeCloseTo(-0.4472135954999579, 9);
    expect(body.percentile).toBe(50);
    expect(body.min).toBeCloseTo(57290 - P, 9);
    expect(body.max).toBeCloseTo(57320 - P, 9);
    expect(body.to).toBe(LATEST_OPEN + 60_000);
    expect(body.from).toBe(LATEST_OPEN + 60_000 - 20 * DAY);
    // A replay naming no contracts: the recorded spread's own closes, of no contract.
    expect(body.coverage).toEqual({
      from: body.from,
      to: body.to,
      first: LATEST_OPEN - 3 * 60_000,
      closes: 4,
      contracts: {},
      loading: false,
    });
  });

  it("is 20 days unless asked, and the 5-day window (loaded on first ask) holds the same minutes", async () => {
    const plain = await client.get("/api/spread-stats/GC_BUY");
    expect(plain.body.days).toBe(20);
    const five = await client.get("/api/spread-stats/GC_BUY?days=5");
    expect(five.status).toBe(200);
    expect(five.body).toMatchObject({ days: 5, n: 4, percentile: 50 });
    expect(five.body.from).toBe(LATEST_OPEN + 60_000 - 5 * DAY);
    expect(five.body.std).toBeCloseTo(11.180339887498949, 9);
  });

  it("has nulls, not errors, for a symbol without history or live value", async () => {
    const { status, body } = await client.get("/api/spread-stats/NIFTY?days=60");
    expect(status).toBe(200);
    expect(body).toEqual({
      symbol: "NIFTY",
      days: 60,
      n: 0,
      value: null,
      mean: null,
      std: null,
      z: null,
      percentile: null,
      min: null,
      max: null,
      from: null,
      to: null,
      coverage: {
        from: null,
        to: null,
        first: null,
        closes: 0,
        contracts: {},
        loading: false,
      },
    });
  });

  it("refuses an unknown symbol or window with a 400 naming the valid ones", async () => {
    const symbol = await client.get("/api/spread-stats/GOLD?days=20");
    expect(symbol.status).toBe(400);
    expect(symbol.body.error).toContain('Unknown symbol "GOLD"');
    expect(symbol.body.error).toContain("GC_BUY, GC_SELL");
    expect(symbol.body.error).toContain("NIFTY");
    for (const days of ["7", "abc", "0"]) {
      const bad = await client.get(`/api/spread-stats/GC_BUY?days=${days}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe("days must be one of 5, 20, 60");
    }
  });

  it("needs a session", async () => {
    const res = await fetch(`${server.url}/api/spread-stats/GC_BUY`);
    expect(res.status).toBe(401);
  });

  it("is served for every symbol at once by market.statsAll", async () => {
    const res = await client.get(`/api/trpc/market.statsAll?input=${encodeURIComponent("{}")}`);
    expect(res.status).toBe(200);
    const all = res.body.result.data;
    expect(all.days).toBe(20);
    expect(Object.keys(all.stats)).toHaveLength(13);
    expect(all.stats.GC_BUY.z).toBeCloseTo(-0.4472135954999579, 9);
    // The 0th..100th percentiles (nearest rank) of closes d = −10, 0, 10, 20: k ≤ 25 → −10,
    // 26..50 → 0, 51..75 → 10, 76..100 → 20 (d = ask − 57300).
    const q: number[] = all.stats.GC_BUY.quantiles;
    expect(q).toHaveLength(101);
    // + 0: a −0 from rounding is 0.
    const d = [0, 25, 26, 50, 51, 75, 76, 100].map(
      (k) => Math.round((q[k] as number) + P - 57300) + 0,
    );
    expect(d).toEqual([-10, -10, 0, 0, 10, 10, 20, 20]);
    expect(all.stats.NIFTY.quantiles).toBeNull();
  });

  it("starts from the stored candles after a restart, the minute forming at shutdown included", async () => {
    // Shutdown writes the forming 09:19 candle (d 0): closes 0, 10, −10, 20, 0 → mean 4,
    // deviations −4, 6, −14, 16, −4 → Σ² 520, variance 104. No quotes after the restart: no
    // live value, so no z or percentile.
    server = await server.restart();
    const again = new HttpClient(server.url);
    await again.post("/api/auth/login", ADMIN);
    const { body } = await again.get("/api/spread-stats/GC_BUY");
    expect(body.n).toBe(5);
    expect(body.mean).toBeCloseTo(57304 - P, 9);
    expect(body.std).toBeCloseTo(Math.sqrt(104), 9);
    expect(body.value).toBeNull();
    expect(body.z).toBeNull();
    expect(body.percentile).toBeNull();
    expect(body.to).toBe(at("2026-11-20T09:19:00Z") + 60_000);
  });
});
