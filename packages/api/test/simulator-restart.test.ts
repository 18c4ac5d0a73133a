import { describe, expect, it } from "vitest";
import { GIFT_PREMIUM, MCX_DEVIATIONS } from "../src/feeds/simulator-params.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, startTestServer, type TestServer } from "./server.ts";

// Waits are generous upper bounds for a busy machine, not speed assertions (docs/design.md §7).
const WAIT = { timeout: 30_000, interval: 100 };
const SIMULATOR = { env: { FEED: "simulator" } };

async function signedIn(s: TestServer) {
  const c = new HttpClient(s.url);
  await c.post("/api/auth/login", ADMIN);
  return c;
}

interface CandleJson {
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** The 1-minute candles from three minutes before `since` (backfilled) to the live one. */
async function minutesSince(c: HttpClient, symbol: string, since: number): Promise<CandleJson[]> {
  const data: CandleJson[] = (await c.get(`/api/chart-data/${symbol}?timeframe=1m`)).body.data;
  return data.filter((m) => m.timestamp >= since - 3 * 60_000);
}

/** Each candle continues the last (open near the previous close) and spans no jump. */
function expectNoJump(candles: CandleJson[], symbol: string, sd: number) {
  expect(candles.length, symbol).toBeGreaterThanOrEqual(2);
  candles.forEach((m, i) => {
    expect(m.high - m.low, `${symbol} range at ${m.timestamp}`).toBeLessThan(sd);
    const previous = candles[i - 1];
    if (previous) {
      expect(Math.abs(m.open - previous.close), `${symbol} gap at ${m.timestamp}`).toBeLessThan(
        0.5 * sd,
      );
    }
  });
}

const relative = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

describe("the simulator across a restart", () => {
  it("joins live to the backfill and carries on from the last recorded levels", async () => {
    const started = Date.now();
    let server = await startTestServer(SIMULATOR);
    try {
      expect(server.startLog.join("\n")).toMatch(/Backfilled 30 days/);
      let client = await signedIn(server);
      const first = (await client.get("/api/prices")).body;
      // Live quotes are flowing on top of the backfill.
      await expect
        .poll(async () => (await client.get("/api/prices")).body.cme.GC.timestamp, WAIT)
        .toBeGreaterThan(first.cme.GC.timestamp);

      // The backfill's last minutes and the first live ones form one path.
      expectNoJump(await minutesSince(client, "GC_BUY", started), "GC_BUY", MCX_DEVIATIONS.GC.sd);
      expectNoJump(await minutesSince(client, "NIFTY", started), "NIFTY", GIFT_PREMIUM.sd);

      const before = (await client.get("/api/prices")).body;
      const spreadsBefore = (await client.get("/api/calculations")).body;
      server = await server.restart(SIMULATOR);
      expect(server.startLog).toEqual([]); // no second backfill
      client = await signedIn(server);
      const after = (await client.get("/api/prices")).body;
      const spreadsAfter = (await client.get("/api/calculations")).body;

      // Gold and crude pick up where they were, on both exchanges (0.5 %).
      for (const [source, key] of [
        ["cme", "GC"],
        ["cme", "CL"],
        ["mcx", "GOLD"],
        ["mcx", "CRUDEOIL"],
      ] as const) {
        expect(relative(after[source][key].bid, before[source][key].bid), key).toBeLessThan(0.005);
      }
      // And so do their spreads: within half their usual distance from the basis.
      for (const symbol of ["GC_BUY", "GC_SELL", "CL_BUY", "CL_SELL"]) {
        const id = symbol.slice(0, 2) as "GC" | "CL";
        expect(
          Math.abs(spreadsAfter[symbol].spread - spreadsBefore[symbol].spread),
          symbol,
        ).toBeLessThan(0.5 * MCX_DEVIATIONS[id].sd);
      }
    } finally {
      await server.stop();
    }
  }, 120_000);
});
