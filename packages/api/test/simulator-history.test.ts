// The simulator's history on one real server and DATA_DIR (docs/simulator.md, docs/formulas.md
// "History from the legs"): its first start's past, live joining it without a jump, a restart
// carrying on where it was, and an instrument put in use later (a definition's leg, an admin's
// add) given the same past at once, so a GOLD near/next calendar defined now — whose GOLD@next
// leg was in use nowhere before it — charts and ranks that past, not from its first live minute
// on.
//
// The mechanics on a short past: the server keeps DAYS of history (HISTORY_RETENTION_DAYS, a
// setting a trader may use), so its first start and each instrument put in use later backfill
// DAYS instead of 30, a tenth of the file's CPU. The default month through the production start,
// the rolls it crosses and its 20-day statistics are the e2e first start's
// (packages/web/e2e/first-start-statistics.test.ts); the storing of a roll, backfill.test.ts's.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GIFT_PREMIUM, MCX_DEVIATIONS } from "../src/feeds/simulator/params.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, backfilled, startTestServer, type TestServer } from "./server.ts";

// Waits are generous upper bounds for a busy machine, not speed assertions (docs/design.md §7).
const WAIT = { timeout: 30_000, interval: 100 };
/** The days of history the server keeps, so the days every backfill of this file makes. */
const DAYS = 3;
const SIMULATOR = { env: { FEED: "simulator", HISTORY_RETENTION_DAYS: String(DAYS) } };
/** The statistics' shortest window (STATS_DAYS): longer than DAYS, so it reads all of them. */
const STATS_WINDOW = 5;
const DAY = 86_400_000;
const MINUTE = 60_000;

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

/** When a key quoted another contract (a roll: IST midnight on the calendar's day). */
async function rollTimes(c: HttpClient): Promise<number[]> {
  return ((await c.get("/api/rolls")).body.rolls as Array<{ at: number }>).map((r) => r.at);
}

/**
 * Each candle continues the last (open near the previous close) and spans no jump; but for the
 * minute a leg rolled in, where the spread moves by the new contract's carry (a run crossing IST
 * midnight on a roll day saw GC_BUY move 922 there).
 */
function expectNoJump(candles: CandleJson[], symbol: string, sd: number, rolls: number[]) {
  expect(candles.length, symbol).toBeGreaterThanOrEqual(2);
  candles.forEach((m, i) => {
    const previous = candles[i - 1];
    const from = previous?.timestamp ?? m.timestamp - 60_000;
    if (rolls.some((at) => at > from && at < m.timestamp + 60_000)) return;
    expect(m.high - m.low, `${symbol} range at ${m.timestamp}`).toBeLessThan(sd);
    if (previous) {
      expect(Math.abs(m.open - previous.close), `${symbol} gap at ${m.timestamp}`).toBeLessThan(
        0.5 * sd,
      );
    }
  });
}

const minutesOf = (key: string) => server.services.store.instrumentCandles.all(key, "1m");
const relative = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

// One first start for the file, so every test reads the same one. The first two each restart the server
// and find no second backfill; the restart test comes first so its live-after-backfill path is
// the first start's (run the other way round, that path spans a restart, which the restart test
// holds seamless too). The instruments put in use later come last: the first start's test counts
// what the first start alone put in use.
// The first start's net is wide: at load 25 on two cores it once took over five minutes.
let server: TestServer;
/** When the first start began, and what it logged. */
let started: number;
let firstStart: string;

beforeAll(async () => {
  started = Date.now();
  server = await startTestServer(SIMULATOR);
  firstStart = await backfilled(server);
}, 600_000);
afterAll(() => server?.stop());

describe("the simulator across a restart", () => {
  it("joins live to the backfill and carries on from the last recorded levels", async () => {
    expect(firstStart).toMatch(new RegExp(`Backfilled ${DAYS} days`));
    let client = await signedIn(server);
    const first = (await client.get("/api/prices")).body;
    // Live quotes are flowing on top of the backfill.
    await expect
      .poll(async () => (await client.get("/api/prices")).body.cme.GC.timestamp, WAIT)
      .toBeGreaterThan(first.cme.GC.timestamp);

    // The backfill's last minutes and the first live ones form one path.
    const rolls = await rollTimes(client);
    expectNoJump(
      await minutesSince(client, "GC_BUY", started),
      "GC_BUY",
      MCX_DEVIATIONS.GC.sd,
      rolls,
    );
    expectNoJump(await minutesSince(client, "NIFTY", started), "NIFTY", GIFT_PREMIUM.sd, rolls);

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
  }, 120_000);
});

describe("the simulator's first start", () => {
  it("fills its days of 1-minute history on first start (the instruments' too), once, consistent across timeframes", {
    timeout: 200_000,
  }, async () => {
    expect(firstStart).toMatch(
      new RegExp(
        `Backfilled ${DAYS} days of simulated history \\([\\d,]+ one-minute candles, \\d+ contract rolls\\) in [\\d.]+ s\\.`,
      ),
    );
    const c = await signedIn(server);
    // The rolls the backfill crossed, if any, are in its days.
    const { rolls } = (await c.get("/api/rolls")).body;
    const started = Date.now() - (DAYS + 1) * DAY;
    expect(rolls.every((r: { at: number }) => r.at > started)).toBe(true);
    const minutes = (await c.get("/api/chart-data/GC_BUY?timeframe=1m")).body.data;
    expect(minutes).toHaveLength(1500);
    const hours = (await c.get("/api/chart-data/GC_BUY?timeframe=1h")).body.data;
    expect(hours.length).toBeGreaterThanOrEqual(DAYS * 24);
    expect(hours.length).toBeLessThanOrEqual(DAYS * 24 + 2);
    // Every hour starts at :30 UTC (an IST hour) and spans its minutes' extremes.
    for (const h of hours) expect(new Date(h.timestamp).getUTCMinutes()).toBe(30);
    const lastHour = hours.at(-2);
    const inIt = minutes.filter(
      (m: { timestamp: number }) =>
        m.timestamp >= lastHour.timestamp && m.timestamp < lastHour.timestamp + 3_600_000,
    );
    expect(inIt).toHaveLength(60);
    expect(lastHour.high).toBe(Math.max(...inIt.map((m: { high: number }) => m.high)));
    expect(lastHour.low).toBe(Math.min(...inIt.map((m: { low: number }) => m.low)));
    expect(lastHour.open).toBe(inIt[0].open);
    expect(lastHour.close).toBe(inIt.at(-1).close);
    // Every instrument's mid over the same days (docs/formulas.md, "History from the legs"),
    // so a calendar defined now charts and ranks that past at once.
    for (const key of ["GOLD", "SILVER", "GC", "USDINR", "NIFTY50"]) {
      const legMinutes = await server.services.store.instrumentCandles.all(key, "1m");
      expect(legMinutes.length, key).toBeGreaterThanOrEqual(DAYS * 1440 - 1);
    }
    const ratio = await c.post("/api/spreads", {
      name: "Gold/silver",
      legs: [
        { name: "g", instrument: "GOLD" },
        { name: "s", instrument: "SILVER" },
      ],
      formula: "g / s",
    });
    const spreadMinutes = await c.get(`/api/chart-data/${ratio.body.symbol}_BUY?timeframe=1m`);
    expect(spreadMinutes.body.data).toHaveLength(1500);
    const spreadDays = await c.get(`/api/chart-data/${ratio.body.symbol}_BUY?timeframe=1d`);
    expect(spreadDays.body.data.length).toBeGreaterThanOrEqual(DAYS);
    const stats = await c.get(`/api/spread-stats/${ratio.body.symbol}_SELL?days=${STATS_WINDOW}`);
    expect(stats.body.n).toBeGreaterThanOrEqual(DAYS * 1440 - 2);
    expect(stats.body.percentile).toEqual(expect.any(Number));
    server = await server.restart(SIMULATOR);
    expect(server.startLog).toEqual([]);
  });
});

describe("an instrument put in use by a definition's leg", () => {
  it("has the same past at once, so the calendar's chart and statistics have it", async () => {
    const admin = await signedIn(server);
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
    const early = await admin.get(`/api/spread-stats/${symbol}_SELL?days=${STATS_WINDOW}`);
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
    // whole past is in.
    const leg = await vi.waitFor(
      async () => {
        const minutes = await minutesOf("GOLD@next");
        expect(minutes.length).toBeGreaterThanOrEqual(DAYS * 1440 - 2);
        return minutes;
      },
      { timeout: 60_000, interval: 250 },
    );
    const createdAt = chart.legHistoryUntil;
    // The days kept, back from the minute it came into use.
    expect(leg[0]?.timestamp).toBeLessThanOrEqual(createdAt - DAYS * DAY + 2 * MINUTE);
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
    expect(days.body.data.length).toBeGreaterThanOrEqual(DAYS);
    // The statistics read the past of the contracts the legs quote now (docs/history.md): the
    // window's days of it, or since the later of the two began, should a roll (at IST midnight on
    // the calendar's day) have brought a contract in since.
    const firstMinute = async (key: string) => {
      const contract = (live.mcx?.[key] as { contract?: string } | undefined)?.contract;
      const rows = await server.services.store.contractCandles.coverage(key);
      return rows.find((row) => row.contract === contract)?.from ?? createdAt;
    };
    const windowFrom = Math.max(
      createdAt - STATS_WINDOW * DAY,
      await firstMinute("GOLD"),
      await firstMinute("GOLD@next"),
    );
    await vi.waitFor(
      async () => {
        const stats = await admin.get(`/api/spread-stats/${symbol}_SELL?days=${STATS_WINDOW}`);
        expect(stats.body.n).toBeGreaterThanOrEqual((createdAt - windowFrom) / MINUTE - 5);
        expect(stats.body.percentile).toEqual(expect.any(Number));
      },
      { timeout: 30_000, interval: 250 },
    );
  }, 240_000);
});

describe("an instrument an admin adds", () => {
  it("gets the same past; one already with a past gets nothing more", async () => {
    const admin = await signedIn(server);
    expect(await minutesOf("SILVER@next")).toEqual([]);
    const goldBefore = (await minutesOf("GOLD")).length;
    expect((await admin.post("/api/instruments", { key: "SILVER@next" })).status).toBe(201);
    await vi.waitFor(
      async () => expect((await minutesOf("SILVER@next")).length).toBeGreaterThan(DAYS * 1440 - 2),
      { timeout: 60_000, interval: 250 },
    );
    // GOLD was in use with its past: nothing of its past was made again.
    expect((await minutesOf("GOLD")).length).toBeLessThanOrEqual(goldBefore + 3);

    // One whose contracts no first start made (a first start makes the next month of a near
    // future in use, not ZINC's): the past of each contract it quoted, as the statistics read
    // them. With the key's mids alone, a spread on ZINC had only the live minutes' statistics
    // once the recorder had written one of its contract's.
    expect(await server.services.store.contractCandles.coverage("ZINC")).toEqual([]);
    expect((await admin.post("/api/instruments", { key: "ZINC" })).status).toBe(201);
    await vi.waitFor(
      async () => {
        const contracts = await server.services.store.contractCandles.coverage("ZINC");
        const minutes = contracts.reduce((sum, row) => sum + row.minutes, 0);
        expect(minutes).toBeGreaterThanOrEqual(DAYS * 1440 - 2);
      },
      { timeout: 60_000, interval: 250 },
    );
  }, 240_000);
});
