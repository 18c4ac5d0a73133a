// An instrument put in use while the server runs gets its past from the feed where the feed can
// make one (docs/formulas.md, "History from the legs"): the simulator backfills its one-minute
// mid candles for the history window, so a GOLD near/next calendar defined now — whose GOLD@next
// leg was in use nowhere before it — charts and ranks a month at once, not from its first
// live minute on. The same for an admin's add.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { HttpClient } from "./http-client.ts";
import { ADMIN, backfilled, startTestServer, type TestServer } from "./server.ts";

const DAY = 86_400_000;
const MINUTE = 60_000;

let server: TestServer;
let admin: HttpClient;

beforeAll(async () => {
  // A fresh server on the simulator: its first start backfills the instruments then in use.
  server = await startTestServer({ env: { FEED: "simulator" } });
  await backfilled(server);
  admin = new HttpClient(server.url);
  expect((await admin.post("/api/auth/login", ADMIN)).status).toBe(200);
}, 600_000);
afterAll(() => server?.stop());

const minutesOf = (key: string) => server.services.store.instrumentCandles.all(key, "1m");

describe("an instrument put in use by a definition's leg", () => {
  it("has a month of minutes at once, so the calendar's chart and statistics have it", async () => {
    expect(await minutesOf("GOLD@next")).toEqual([]);
    const created = await admin.post("/api/spreads", {
      name: "GOLD near/next",
      legs: [
        { name: "a", instrument: "GOLD" },
        { name: "b", instrument: "GOLD@next" },
      ],
      formula: "a - b",
    });
    expect(created.status).toBe(201);
    const symbol = created.body.symbol as string;
    // Asked before the past is stored, most likely: a window loaded then must not stay empty.
    const early = await admin.get(`/api/spread-stats/${symbol}_SELL?days=20`);
    expect(early.status).toBe(200);

    const chart = await vi.waitFor(
      async () => {
        const got = await admin.get(`/api/chart-data/${symbol}_BUY?timeframe=1m`);
        expect(got.status).toBe(200);
        const before = (got.body.data as { timestamp: number }[]).filter(
          (c) => c.timestamp < got.body.legHistoryUntil,
        );
        // A full page of minutes, all but the last few from before the spread existed.
        expect(before.length).toBeGreaterThan(1_400);
        return got.body as {
          data: { timestamp: number; close: number }[];
          legHistoryUntil: number;
        };
      },
      { timeout: 60_000, interval: 250 },
    );
    // Consecutive minutes, no hole where the past meets the live quotes.
    const stamps = chart.data.map((c) => c.timestamp);
    const gaps = stamps.slice(1).filter((t, i) => t - (stamps[i] as number) !== MINUTE);
    expect(gaps).toEqual([]);

    // The past is written a day at a time, newest first: the chart has its page before the
    // whole month is in.
    const leg = await vi.waitFor(
      async () => {
        const minutes = await minutesOf("GOLD@next");
        expect(minutes.length).toBeGreaterThanOrEqual(30 * 1440 - 2);
        return minutes;
      },
      { timeout: 60_000, interval: 250 },
    );
    const createdAt = chart.legHistoryUntil;
    // 30 days back from the minute it came into use.
    expect(leg[0]?.timestamp).toBeLessThanOrEqual(createdAt - 30 * DAY + 2 * MINUTE);
    // The past is the simulator's own path: its last minute is where the live quotes went on.
    const lastPast = leg.filter((c) => c.timestamp < createdAt - MINUTE).at(-1);
    const live = (await admin.get("/api/prices")).body as Record<
      string,
      Record<string, { bid?: number; ask?: number; price?: number }>
    >;
    const book = live.mcx?.["GOLD@next"];
    const mid = book?.bid !== undefined && book.ask !== undefined ? (book.bid + book.ask) / 2 : NaN;
    expect(Math.abs((lastPast?.close ?? 0) / mid - 1)).toBeLessThan(0.01);

    const days = await admin.get(`/api/chart-data/${symbol}_BUY?timeframe=1d`);
    expect(days.body.data.length).toBeGreaterThanOrEqual(30);
    // The statistics read the past of the contracts the legs quote now (docs/history.md): 20
    // days of it, or since the later of the two began, should a roll (at IST midnight on the
    // calendar's day) have brought a contract in since.
    const firstMinute = async (key: string) => {
      const contract = (live.mcx?.[key] as { contract?: string } | undefined)?.contract;
      const rows = await server.services.store.contractCandles.coverage(key);
      return rows.find((row) => row.contract === contract)?.from ?? createdAt;
    };
    const windowFrom = Math.max(
      createdAt - 20 * DAY,
      await firstMinute("GOLD"),
      await firstMinute("GOLD@next"),
    );
    await vi.waitFor(
      async () => {
        const stats = await admin.get(`/api/spread-stats/${symbol}_SELL?days=20`);
        expect(stats.body.n).toBeGreaterThanOrEqual((createdAt - windowFrom) / MINUTE - 5);
        expect(stats.body.percentile).toEqual(expect.any(Number));
      },
      { timeout: 30_000, interval: 250 },
    );
  }, 240_000);
});

describe("an instrument an admin adds", () => {
  it("gets the same past; one already with a past gets nothing more", async () => {
    expect(await minutesOf("SILVER@next")).toEqual([]);
    const goldBefore = (await minutesOf("GOLD")).length;
    expect((await admin.post("/api/instruments", { key: "SILVER@next" })).status).toBe(201);
    await vi.waitFor(
      async () => expect((await minutesOf("SILVER@next")).length).toBeGreaterThan(30 * 1440 - 2),
      { timeout: 60_000, interval: 250 },
    );
    // GOLD was in use with a month of history: nothing of its past was made again.
    expect((await minutesOf("GOLD")).length).toBeLessThanOrEqual(goldBefore + 3);

    // One whose contracts no first start made (a first start makes the next month of a near
    // future in use, not ZINC's): the month of each contract it quoted, as the statistics read
    // them. With the key's mids alone, a spread on ZINC had only the live minutes' statistics
    // once the recorder had written one of its contract's.
    expect(await server.services.store.contractCandles.coverage("ZINC")).toEqual([]);
    expect((await admin.post("/api/instruments", { key: "ZINC" })).status).toBe(201);
    await vi.waitFor(
      async () => {
        const contracts = await server.services.store.contractCandles.coverage("ZINC");
        const minutes = contracts.reduce((sum, row) => sum + row.minutes, 0);
        expect(minutes).toBeGreaterThanOrEqual(30 * 1440 - 2);
      },
      { timeout: 60_000, interval: 250 },
    );
  }, 240_000);
});
