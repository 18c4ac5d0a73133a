// A user's own spread has history from its first minute (docs/formulas.md, "History from the
// legs"): its chart and statistics come from its legs' recorded mid candles at once, marked by
// legHistoryUntil, and from its own recorded values after; another user's private spread is a
// 404 on both. Worked by hand on a manual feed.
import { candlesToCsv } from "@spreadwatch/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addTrader, startWithTrader } from "./fakes/signed-in-trader.ts";
import { HttpClient } from "./http-client.ts";
import type { manualFeed, TestServer } from "./server.ts";

const M = 60_000;
const T0 = Date.parse("2026-11-20T09:15:00Z");
// Minute i: GOLD mid g(i) (book ±5), SILVER mid s(i) (book ±10), one quote each.
const g = (i: number) => 76000 + 20 * i;
const s = (i: number) => 90000 - 10 * i * (i % 3);

let server: TestServer;
let trader: HttpClient;
let admin: HttpClient;
let other: HttpClient;
let feed: ReturnType<typeof manualFeed>;

function quoteMinute(i: number) {
  feed.push({ source: "mcx", key: "GOLD", bid: g(i) - 5, ask: g(i) + 5, ts: T0 + i * M });
  feed.push({ source: "mcx", key: "SILVER", bid: s(i) - 10, ask: s(i) + 10, ts: T0 + i * M + 1 });
}

beforeAll(async () => {
  ({ server, admin, trader } = await startWithTrader());
  other = await addTrader(server, admin, "other");
  feed = server.feed as ReturnType<typeof manualFeed>;
  // Ten closed minutes of both legs before anyone defines a spread on them.
  for (let i = 0; i <= 10; i++) quoteMinute(i);
  await vi.waitFor(
    async () =>
      expect(await server.services.store.instrumentCandles.all("SILVER", "1m")).toHaveLength(10),
    { timeout: 10_000 },
  );
});
afterAll(() => server.stop());

const RATIO = {
  name: "Gold/silver",
  legs: [
    { name: "g", instrument: "GOLD" },
    { name: "s", instrument: "SILVER" },
  ],
  formula: "g / s",
};

describe("a spread defined now", () => {
  it("charts and ranks its legs' closes at once, marked; then its own candles; 404 to anyone else", async () => {
    const created = await trader.post("/api/spreads", RATIO);
    expect(created.status).toBe(201);
    const symbol = created.body.symbol as string;
    const createdAt = server.services.spreads.bySymbolName(symbol)?.createdAt as number;

    // From its legs: minutes 0..10 (10 still forming), each g(i) / s(i) of the mids.
    const chart = await trader.get(`/api/chart-data/${symbol}_BUY?timeframe=1m`);
    expect(chart.status).toBe(200);
    expect(chart.body.legHistoryUntil).toBe(createdAt);
    expect(chart.body.data).toEqual(
      Array.from({ length: 11 }, (_, i) => {
        const v = g(i) / s(i);
        return { timestamp: T0 + i * M, open: v, high: v, low: v, close: v };
      }),
    );
    const hours = await trader.get(`/api/chart-data/${symbol}_SELL?timeframe=1h`);
    expect(hours.body.data).toEqual([
      {
        timestamp: Date.parse("2026-11-20T08:30:00Z"),
        open: g(0) / s(0),
        high: g(10) / s(10),
        low: g(0) / s(0),
        close: g(10) / s(10),
      },
    ]);
    // The CSV the chart downloads keeps a ratio's digits.
    expect(candlesToCsv(`${symbol}_BUY`, "1m", chart.body.data).split("\n")[1]).toContain(
      `,${(g(0) / s(0)).toFixed(6)},`,
    );

    // Its statistics, from the same closes, with the live BUY (g.ask / s.bid of minute 10).
    const closes = Array.from({ length: 10 }, (_, i) => g(i) / s(i));
    const mean = closes.reduce((a, b) => a + b) / 10;
    const std = Math.sqrt(closes.reduce((a, c) => a + (c - mean) ** 2, 0) / 10);
    const live = (g(10) + 5) / (s(10) - 10);
    const stats = await trader.get(`/api/spread-stats/${symbol}_BUY?days=20`);
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ symbol: `${symbol}_BUY`, days: 20, n: 10 });
    expect(stats.body.value).toBeCloseTo(live, 12);
    expect(stats.body.mean).toBeCloseTo(mean, 12);
    expect(stats.body.std).toBeCloseTo(std, 12);
    expect(stats.body.z).toBeCloseTo((live - mean) / std, 9);
    expect(stats.body.percentile).toBe((closes.filter((c) => c <= live).length / 10) * 100);
    expect(stats.body.to).toBe(T0 + 10 * M);
    const all = await trader.get("/api/trpc/market.statsAll");
    const mine = all.body.result.data.stats;
    expect(mine[`${symbol}_SELL`]).toMatchObject({ n: 10 });
    expect(mine[`${symbol}_BUY`].quantiles).toHaveLength(101);

    // Nobody else learns anything of it, an admin included; the statistics list leaves it out.
    for (const client of [other, admin]) {
      expect((await client.get(`/api/chart-data/${symbol}_BUY`)).status).toBe(404);
      expect((await client.get(`/api/spread-stats/${symbol}_SELL`)).status).toBe(404);
      expect((await client.get(`/api/spread-stats/${symbol}_SELL`)).body).toEqual({
        error: "Spread not found",
      });
      const theirs = (await client.get("/api/trpc/market.statsAll")).body.result.data.stats;
      expect(Object.keys(theirs)).not.toContain(`${symbol}_BUY`);
    }
    expect((await new HttpClient(server.url).get(`/api/chart-data/${symbol}_BUY`)).status).toBe(
      401,
    );
    // Unknown ids look the same as hidden ones; anything else is a 400 naming the valid codes.
    expect((await trader.get("/api/chart-data/SP999_BUY")).status).toBe(404);
    expect((await trader.get(`/api/chart-data/${symbol}_MID`)).status).toBe(400);
    expect((await trader.get(`/api/spread-stats/${symbol}`)).status).toBe(400);

    // Live: minutes 11 and 12. Minute 11 is its own candle (BUY = g.ask / s.bid), the leg
    // history now runs to minute 10, and its statistics took minute 11's close.
    quoteMinute(11);
    quoteMinute(12);
    const own = (i: number) => (g(i) + 5) / (s(i) - 10);
    await vi.waitFor(
      async () => {
        const after = await trader.get(`/api/chart-data/${symbol}_BUY?timeframe=1m`);
        expect(after.body.legHistoryUntil).toBe(T0 + 11 * M);
        expect(after.body.data.map((c: { timestamp: number }) => (c.timestamp - T0) / M)).toEqual([
          0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
        ]);
        expect(after.body.data[10].close).toBe(g(10) / s(10));
        // Opened on GOLD's minute-11 quote while SILVER was still at minute 10's book.
        const open = (g(11) + 5) / (s(10) - 10);
        expect(after.body.data[11]).toEqual({
          timestamp: T0 + 11 * M,
          open,
          high: Math.max(open, own(11)),
          low: Math.min(open, own(11)),
          close: own(11),
        });
        // The forming minute is its own too.
        expect(after.body.data[12].close).toBe(own(12));
      },
      { timeout: 10_000 },
    );
    const later = await trader.get(`/api/spread-stats/${symbol}_BUY?days=20`);
    expect(later.body).toMatchObject({ n: 11, to: T0 + 12 * M });
    expect(later.body.max).toBe(Math.max(...closes, own(11)));
    // The range asked for is honoured on both sides of legHistoryUntil.
    const ranged = await trader.get(
      `/api/chart-data/${symbol}_BUY?timeframe=1m&from=${T0 + 9 * M}&to=${T0 + 12 * M}`,
    );
    expect(ranged.body.data.map((c: { timestamp: number }) => (c.timestamp - T0) / M)).toEqual([
      9, 10, 11,
    ]);
  });
});

describe("a spread on legs that quote exchange contracts", () => {
  it("says which contract each leg's statistics are of, as the built-ins do", async () => {
    // Crude oil on both exchanges, each quote naming its contract: five closed minutes of each.
    const crude = (i: number) => 6000 + 3 * i;
    const cl = (i: number) => 70 + 0.05 * i;
    for (let i = 0; i <= 5; i++) {
      const ts = T0 + 30 * M + i * M;
      feed.push({
        source: "mcx",
        key: "CRUDEOIL",
        bid: crude(i) - 1,
        ask: crude(i) + 1,
        ts,
        contract: "CRUDEOIL26DECFUT",
      });
      feed.push({
        source: "cme",
        key: "CL",
        bid: cl(i) - 0.01,
        ask: cl(i) + 0.01,
        ts: ts + 1,
        contract: "CLF27",
      });
    }
    await vi.waitFor(
      async () =>
        expect(await server.services.store.instrumentCandles.all("CL", "1m")).toHaveLength(5),
      { timeout: 10_000 },
    );
    const created = await trader.post("/api/spreads", {
      name: "Crude per barrel",
      legs: [
        { name: "m", instrument: "CRUDEOIL" },
        { name: "c", instrument: "CL" },
      ],
      formula: "m - c * 84",
    });
    expect(created.status).toBe(201);
    const symbol = created.body.symbol as string;
    const stats = await trader.get(`/api/spread-stats/${symbol}_BUY?days=20`);
    expect(stats.status).toBe(200);
    expect(stats.body.n).toBe(5);
    expect(stats.body.coverage).toEqual({
      from: stats.body.from,
      to: stats.body.to,
      first: null,
      closes: 5,
      contracts: { CRUDEOIL: "CRUDEOIL26DECFUT", CL: "CLF27" },
      loading: false,
    });
  });
});
