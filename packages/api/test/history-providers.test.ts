// The leader's fetch of the providers' past against fakes of Kite (historical candles, 3 requests a
// second enforced with 429s) and Yahoo (v8 chart API) on loopback, into a real SQLite file.
import { type InstrumentSpec, shippedInstrument } from "@spreadwatch/core";
import { createTestStore, type TestStore } from "@spreadwatch/db/testing";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseMarketDataConfig } from "../src/feeds/providers/config-file.ts";
import { istDate } from "../src/feeds/providers/market-hours.ts";
import { instrumentCandleSink } from "../src/history/candle-sink.ts";
import { historyCoverage } from "../src/history/coverage.ts";
import { ProviderHistory } from "../src/history/provider-history.ts";
import { yahooHistorySymbol } from "../src/history/yahoo-chart.ts";
import {
  acceptLoginOfTheDay,
  FakeKite,
  instrumentRow,
  instrumentsCsv,
  mcxOpen,
} from "./fakes/fake-kite.ts";
import { CHART_PATH, FakeYahoo, globexOpen } from "./fakes/fake-yahoo.ts";
import { HANG_CUT_MS } from "./fakes/wait.ts";

const M = 60_000;
const DAY = 86_400_000;
const DAYS = 20;
const KITE_FUTURES = ["GOLD", "SILVER", "COPPER", "NATURALGAS", "CRUDEOIL", "GOLDM", "ZINC"];

let test: TestStore;
let kite: FakeKite;
let yahoo: FakeYahoo;
let job: ProviderHistory | undefined;
let gcSymbol: string;
const NOW = Date.now();
const TO = Math.floor(NOW / M) * M;
const FROM = TO - DAYS * DAY;

const spec = (key: string) => shippedInstrument(key) as InstrumentSpec;
const goldPath = (t: number) => 130_000 + ((t / M) % 97);
const gcPath = (t: number) => 2_650 + ((t / M) % 89) / 10;

beforeEach(async () => {
  test = createTestStore();
  [kite, yahoo] = await Promise.all([new FakeKite().start(), new FakeYahoo().start()]);
  acceptLoginOfTheDay(kite);
  kite.instruments.set(
    "MCX",
    instrumentsCsv(
      KITE_FUTURES.map((name, i) =>
        instrumentRow({
          token: 1000 + i,
          tradingsymbol: `${name}99DECFUT`,
          name,
          expiry: "2099-12-05",
          segment: "MCX-FUT",
          exchange: "MCX",
        }),
      ),
    ),
  );
  KITE_FUTURES.forEach((_, i) => {
    kite.historical.set(1000 + i, goldPath);
  });
  const found = yahooHistorySymbol("GC", spec("GC"), undefined, istDate(NOW));
  if ("missing" in found) throw new Error(found.missing);
  gcSymbol = found.symbol;
  yahoo.charts.set(gcSymbol, gcPath);
});

afterEach(async () => {
  await job?.stop();
  job = undefined;
  await Promise.all([kite.stop(), yahoo.stop()]);
  await test.cleanup();
});

function fetcher(
  options: {
    timeoutMs?: number;
    fetched?: string[][];
    keys?: string[];
    days?: number;
    retryMs?: number;
    now?: () => number;
  } = {},
): ProviderHistory {
  const market = parseMarketDataConfig({
    providers: {
      kite: { type: "kite", keys: options.keys ?? ["GOLD"] },
      yahoo: { type: "yahoo", keys: ["GC"], baseUrl: yahoo.url },
    },
  });
  return new ProviderHistory({
    store: test.store,
    sink: instrumentCandleSink(test.store),
    market,
    kite: kite.settings(),
    sessions: {
      read: async () => ({
        kind: "valid",
        session: {
          accessToken: "access-of-the-day",
          userId: "AB1234",
          savedAt: NOW,
          expiresAt: NOW + DAY,
        },
      }),
    },
    days: options.days ?? DAYS,
    timeoutMs: options.timeoutMs ?? 10_000,
    checkMs: 3_600_000,
    retryMs: options.retryMs,
    onFetched: (keys) => void options.fetched?.push([...keys].sort()),
    now: options.now ?? (() => NOW),
  });
}

/** The minutes in the window a market trades, as the fakes serve them. */
function minutesOpen(open: (t: number) => boolean, quiet: (t: number) => boolean = () => false) {
  let n = 0;
  for (let t = FROM; t < TO; t += M) if (open(t) && !quiet(t)) n++;
  return n;
}
const gcMinutes = () => minutesOpen(globexOpen, (t) => (t / M) % 13 === 0);

async function coverage(keys: string[]) {
  return historyCoverage(keys.map(spec), {
    store: test.store,
    days: DAYS,
    feed: "composite",
    now: () => NOW,
  });
}

describe("the providers' past", { timeout: 120_000 }, () => {
  it("fills the statistics window with each contract's one-minute candles", async () => {
    const keys = ["GOLD", "SILVER", "COPPER", "NATURALGAS", "CRUDEOIL", "GOLDM", "ZINC"];
    const fetched: string[][] = [];
    job = fetcher({ fetched, keys });
    job.start(() => [...keys, "GC"].map(spec));
    await job.idle();

    const rows = await coverage([...keys, "GC"]);
    for (const row of rows.filter((r) => r.key !== "GC"))
      expect(row).toMatchObject({
        source: "kite",
        contract: `${row.key}99DECFUT`,
        resolution: "1m",
        minutes: minutesOpen(mcxOpen),
        fetching: false,
        error: null,
        gaps: [],
      });
    expect(rows.find((r) => r.key === "GC")).toMatchObject({
      source: "yahoo",
      contract: gcSymbol.replace(/\..*$/, ""),
      minutes: gcMinutes(),
      progress: { done: 3, total: 3 },
      error: null,
    });
    expect(kite.historicalRequests.filter((r) => r.status === 200)).toHaveLength(7);
    // The month's own symbol at 1-minute bars, 7 days a request; never GC=F.
    const charts = yahoo.requests.filter((r) => r.path.startsWith(CHART_PATH));
    expect(charts.map((r) => r.path)).toEqual(Array(3).fill(`${CHART_PATH}${gcSymbol}`));
    expect(charts.map((r) => r.query.get("interval"))).toEqual(["1m", "1m", "1m"]);
    expect(fetched).toEqual([[...keys, "GC"].sort()]);
    const [first] = await test.store.instrumentCandles.recent({
      symbol: "GOLD",
      timeframe: "1m",
      from: FROM,
      limit: 1,
    });
    expect(first).toBeDefined();
  });

  it("spaces Kite's requests to its 3 a second", async () => {
    // A day each, so the fake answers at once and seven requests would all arrive together.
    const keys = ["GOLD", "SILVER", "COPPER", "NATURALGAS", "CRUDEOIL", "GOLDM", "ZINC"];
    job = fetcher({ keys, days: 1 });
    job.start(() => keys.map(spec));
    await job.idle();
    expect(kite.historicalRequests.filter((r) => r.status === 200)).toHaveLength(7);
    // Kite's limit refused none: a place is held until a second after the answer came back.
    expect(kite.historicalRequests.filter((r) => r.status === 429)).toEqual([]);
  });

  it("backs off a 429 and gets the window on a later try", async () => {
    kite.failNextHistorical.push(429);
    job = fetcher();
    job.start(() => [spec("GOLD")]);
    await job.idle();
    expect(kite.historicalRequests.map((r) => r.status)).toEqual([429, 200]);
    expect((await coverage(["GOLD"]))[0]).toMatchObject({
      minutes: minutesOpen(mcxOpen),
      error: null,
    });
  });

  it("a hanging provider times out: the key says so, the others are filled", async () => {
    kite.failNextHistorical.push("hang", "hang", "hang", "hang");
    job = fetcher({ timeoutMs: HANG_CUT_MS });
    job.start(() => [spec("GOLD"), spec("GC")]);
    await job.idle();
    const [gold, gc] = await coverage(["GOLD", "GC"]);
    expect(gold).toMatchObject({ minutes: 0, fetching: false, gaps: [{ from: FROM, to: TO }] });
    expect(gold?.error).toBe("Kite: no answer within 2 s");
    expect(gc).toMatchObject({ minutes: gcMinutes(), error: null });
  });

  it("a key whose every window failed waits for the retry, not the next check", async () => {
    // Yahoo has no chart of the month (404): three windows, three failures.
    yahoo.charts.delete(gcSymbol);
    let now = NOW;
    job = fetcher({ retryMs: 5 * M, now: () => now });
    job.start(() => [spec("GC")]);
    await job.idle();
    expect(yahoo.chartRequests).toBe(3);
    expect((await coverage(["GC"]))[0]?.error).toMatch(/^Yahoo: HTTP 404/);
    // A check a minute later (what every HISTORY_FETCH_CHECK_SECONDS does) asks Yahoo nothing.
    now += M;
    job.fetch(["GC"]);
    await job.idle();
    expect(yahoo.chartRequests).toBe(3);
    // Once the retry is due, the failed windows are asked for again, each once, and then the
    // minutes since the first fetch.
    yahoo.charts.set(gcSymbol, gcPath);
    now += 5 * M;
    const before = yahoo.requests.length;
    job.fetch(["GC"]);
    await job.idle();
    const asked = yahoo.requests.slice(before).map((r) => Number(r.query.get("period1")) * 1000);
    expect(asked).toEqual([FROM, FROM + 7 * DAY, FROM + 14 * DAY, TO]);
    expect((await coverage(["GC"]))[0]).toMatchObject({ gaps: [], error: null });
  });

  it("a half answer keeps what came and what was recorded, and names the gap", async () => {
    // A minute recorded live in the last week: what was fetched never writes over it.
    const recorded = TO - 2 * DAY;
    await test.store.instrumentCandles.save([
      { symbol: "GC", timeframe: "1m", timestamp: recorded, open: 1, high: 1, low: 1, close: 1 },
    ]);
    // Yahoo fails the first week three times (every try), and Kite cuts its answer halfway once.
    yahoo.failNext(`${CHART_PATH}${gcSymbol}`, { status: 500 }, { status: 500 }, { status: 500 });
    kite.failNextHistorical.push("half");
    job = fetcher();
    job.start(() => [spec("GOLD"), spec("GC")]);
    await job.idle();
    const [gold, gc] = await coverage(["GOLD", "GC"]);
    expect(gold).toMatchObject({ minutes: minutesOpen(mcxOpen), error: null });
    const firstWeek = { from: FROM, to: FROM + 7 * DAY };
    expect(gc).toMatchObject({ gaps: [firstWeek], error: "Yahoo: HTTP 500", fetching: false });
    const inFirstWeek = (t: number) => t >= firstWeek.from && t < firstWeek.to;
    let expected = 0;
    for (let t = firstWeek.to; t < TO; t += M) if (globexOpen(t) && (t / M) % 13 !== 0) expected++;
    if (!globexOpen(recorded) || (recorded / M) % 13 === 0) expected++;
    expect(gc?.minutes).toBe(expected);
    const [kept] = await test.store.instrumentCandles.recent({
      symbol: "GC",
      timeframe: "1m",
      from: recorded,
      to: recorded + M,
      limit: 1,
    });
    expect(kept?.close).toBe(1);
    expect(inFirstWeek(gc?.from ?? 0)).toBe(false);

    // "Fetch again" tries the gap: the whole window now.
    job.fetch(["GC"], true);
    await job.idle();
    expect((await coverage(["GC"]))[0]).toMatchObject({ gaps: [], error: null });
  });

  it("a fetch cut short resumes after its last written window, adding no candle twice", async () => {
    // The second week hangs; the leader goes away while it waits.
    yahoo.chartReplies.set(2, "hang");
    job = fetcher();
    job.start(() => [spec("GC")]);
    await vi.waitFor(
      async () => {
        const [gc] = await coverage(["GC"]);
        expect(gc?.progress.done).toBe(1);
      },
      { timeout: 10_000, interval: 20 },
    );
    await vi.waitFor(() => expect(yahoo.chartRequests).toBe(2), { timeout: 10_000, interval: 20 });
    await job.stop();
    const [cut] = await coverage(["GC"]);
    expect(cut?.fetching).toBe(true);

    const before = yahoo.requests.length;
    job = fetcher();
    job.start(() => [spec("GC")]);
    await job.idle();
    const asked = yahoo.requests.slice(before).map((r) => Number(r.query.get("period1")) * 1000);
    // The first week was written: only the rest was asked for.
    expect(asked[0]).toBe(FROM + 7 * DAY);
    const [gc] = await coverage(["GC"]);
    expect(gc).toMatchObject({ minutes: gcMinutes(), fetching: false, error: null });
  });
});
