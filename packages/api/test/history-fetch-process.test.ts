// The providers' past through the production start (scripts/start.mjs) with FEED=composite: a
// fake Kite (login, instruments lists, historical candles, 3 requests a second) and a fake Yahoo
// (quotes and the v8 chart API) on loopback. Before the admin's Kite login Yahoo's keys fill and
// Kite's say why they wait; after it GOLD and USDINR fill, GC_BUY has a chart and statistics from
// before the server ever ran; a provider that hangs leaves the past and the server answering,
// and /api/health says so.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shippedInstrument } from "@spreadwatch/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { istDate } from "../src/feeds/providers/market-hours.ts";
import { yahooHistorySymbol } from "../src/history/yahoo-chart.ts";
import { acceptLoginOfTheDay, FakeKite, instrumentRow, instrumentsCsv } from "./fakes/fake-kite.ts";
import { FakeYahoo } from "./fakes/fake-yahoo.ts";
import { eventually } from "./fakes/wait.ts";
import { HttpClient } from "./http-client.ts";
import { ADMIN, listeningUrl, type MainProcess, runMain } from "./server.ts";

const M = 60_000;
const GOLD_TOKEN = 53_505_543;
const USDINR_TOKEN = 412_675;

let dir: string;
let kite: FakeKite;
let yahoo: FakeYahoo;
let main: MainProcess;
let url: string;
let admin: HttpClient;
let gcSymbol: string;
const startedAt = Date.now();

interface CoverageRow {
  key: string;
  contract: string | null;
  source: string;
  minutes: number;
  from: number | null;
  fetching: boolean;
  error: string | null;
  gaps: Array<{ from: number; to: number }>;
}

const coverage = async () =>
  (await admin.get("/api/history/coverage")).body.instruments as CoverageRow[];
const row = (rows: CoverageRow[], key: string) => rows.find((r) => r.key === key);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "spreadwatch-history-"));
  [kite, yahoo] = await Promise.all([new FakeKite().start(), new FakeYahoo().start()]);
  acceptLoginOfTheDay(kite);
  const future = (token: number, tradingsymbol: string, name: string, exchange: "MCX" | "CDS") =>
    instrumentsCsv([
      instrumentRow({
        token,
        tradingsymbol,
        name,
        expiry: "2099-12-05",
        segment: `${exchange}-FUT`,
        exchange,
      }),
    ]);
  kite.instruments.set("MCX", future(GOLD_TOKEN, "GOLD99DECFUT", "GOLD", "MCX"));
  kite.instruments.set("CDS", future(USDINR_TOKEN, "USDINR99DECFUT", "USDINR", "CDS"));
  // GOLD near parity with GC at USDINR 84 and 6 % duty: a spread of a few hundred rupees.
  kite.historical.set(GOLD_TOKEN, (t) => 76_800 + ((t / M) % 37));
  kite.historical.set(USDINR_TOKEN, (t) => 84 + ((t / M) % 11) / 100);
  const found = yahooHistorySymbol("GC", shippedInstrument("GC"), undefined, istDate(startedAt));
  if ("missing" in found) throw new Error(found.missing);
  gcSymbol = found.symbol;
  yahoo.charts.set(gcSymbol, (t) => 2_680 + ((t / M) % 29) / 10);
  yahoo.beforeQuote = () =>
    yahoo.results.set("GC=F", {
      bid: 2680,
      ask: 2680.4,
      regularMarketPrice: 2680.2,
      regularMarketTime: Math.floor(Date.now() / 1000),
    });
  yahoo.beforeQuote();

  const marketData = join(dir, "market-data.json");
  writeFileSync(
    marketData,
    JSON.stringify({
      providers: {
        kite: { type: "kite", keys: ["GOLD", "USDINR"], hours: "always", tokenCheckSeconds: 0.1 },
        yahoo: {
          type: "yahoo",
          keys: ["GC"],
          baseUrl: yahoo.url,
          cookieUrl: yahoo.cookieUrl,
          pollSeconds: 0.2,
        },
      },
    }),
  );
  main = runMain({
    DATA_DIR: join(dir, "data"),
    FEED: "composite",
    MARKET_DATA_CONFIG: marketData,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    HISTORY_FETCH_CHECK_SECONDS: "0.2",
    // Long enough for a loaded machine to answer (a provider that hangs is told from one that is slow).
    HISTORY_FETCH_TIMEOUT_SECONDS: "3",
    ...kite.env(),
  });
  url = await listeningUrl(main);
  admin = new HttpClient(url);
  expect((await admin.post("/api/auth/login", ADMIN)).status).toBe(200);
}, 60_000);

afterAll(async () => {
  if (process.env.SHOW_SERVER_LOG) console.log(main?.stdout(), main?.stderr());
  main?.child.kill("SIGTERM");
  await main?.exited;
  await Promise.all([kite?.stop(), yahoo?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

describe("the providers' past, in the production start", () => {
  it("coverage needs a session, and Kite's keys wait for the login while Yahoo's fill", async () => {
    expect((await new HttpClient(url).get("/api/history/coverage")).status).toBe(401);
    const rows = await eventually(
      coverage,
      (r) => (row(r, "GC")?.minutes ?? 0) > 0 && !row(r, "GC")?.fetching,
      "GC's past from Yahoo",
      60_000,
    );
    expect(row(rows, "GC")).toMatchObject({
      source: "yahoo",
      contract: gcSymbol.replace(/\..*$/, ""),
      error: null,
    });
    expect(row(rows, "GOLD")?.error).toMatch(/^Kite: no Kite access token yet/);
    // Keys no provider of the file quotes say so rather than stay blank.
    expect(row(rows, "SI")?.error).toBeTruthy();
    expect(yahoo.requests.some((r) => r.path.endsWith("/GC=F") && r.path.includes("chart"))).toBe(
      false,
    );
  }, 90_000);

  it("after the admin's Kite login GOLD and USDINR fill, and GC_BUY has a chart and statistics from before the start", async () => {
    const login = await admin.get("/api/kite/login");
    const redirect = new URL(login.headers.location as string).searchParams.get("redirect_params");
    const state = new URLSearchParams(redirect ?? "").get("state");
    const callback = await admin.get(`/api/kite/callback?request_token=req-good&state=${state}`);
    expect(callback.headers.location).toBe("/admin?kite=connected");

    const rows = await eventually(
      coverage,
      (r) => ["GOLD", "USDINR"].every((k) => (row(r, k)?.minutes ?? 0) > 0 && !row(r, k)?.fetching),
      "GOLD and USDINR from Kite's historical candles",
      60_000,
    );
    expect(row(rows, "GOLD")).toMatchObject({
      source: "kite",
      contract: "GOLD99DECFUT",
      error: null,
    });
    expect(row(rows, "USDINR")).toMatchObject({ source: "kite", contract: "USDINR99DECFUT" });
    expect(kite.historicalRequests.filter((r) => r.status === 429)).toEqual([]);

    // GC_BUY's one-minute chart before this server started: made of the fetched legs.
    const before = await eventually(
      () => admin.get(`/api/chart-data/GC_BUY?timeframe=1m&to=${startedAt - 60 * M}`),
      (r) => r.status === 200 && r.body.data.length > 0,
      "GC_BUY's chart from the fetched past",
      30_000,
    );
    const last = before.body.data.at(-1);
    expect(last.timestamp).toBeLessThan(startedAt - 60 * M);
    expect(Math.abs(last.close)).toBeLessThan(5_000);
    // Its statistics cover days, not the minutes since the start.
    const stats = await eventually(
      () => admin.get("/api/spread-stats/GC_BUY"),
      (r) => r.status === 200 && r.body.n > 1_000,
      "GC_BUY's statistics over the fetched past",
      30_000,
    );
    expect(stats.body.from).toBeLessThan(startedAt - 24 * 60 * M);
  }, 120_000);

  it("a provider that hangs leaves the past there and the server answering, and /api/health says so", async () => {
    const [gc] = (await coverage()).filter((r) => r.key === "GC");
    // Every chart request from now on hangs.
    for (let n = yahoo.chartRequests + 1; n < yahoo.chartRequests + 40; n++)
      yahoo.chartReplies.set(n, "hang");
    const asked = await admin.post("/api/history/fetch", { keys: ["GC"] });
    expect(asked.status).toBe(200);
    expect((await admin.post("/api/history/fetch", { keys: ["NOPE"] })).status).toBe(400);

    const health = await eventually(
      () => new HttpClient(url).get("/api/health"),
      (r) => r.body.history?.errors?.GC !== undefined,
      "the hang in /api/health",
      90_000,
    );
    expect(health.body.history.errors.GC).toBe("Yahoo: no answer within 3 s");
    // While it hung, and after: the server answered, and GC's past is still there.
    expect((await new HttpClient(url).get("/api/prices")).status).toBe(200);
    const after = row(await coverage(), "GC");
    // Every minute is still there but those the retention pruned off the old end meanwhile
    // (a minute a minute: the count may drop by as many as the window's start moved).
    const pruned = ((after?.from ?? 0) - (gc?.from ?? 0)) / 60_000;
    expect(pruned).toBeGreaterThanOrEqual(0);
    expect(after?.minutes).toBeGreaterThanOrEqual((gc?.minutes ?? 1) - pruned);
    expect(after?.minutes).toBeGreaterThan(0);
    expect(after?.gaps.length).toBeGreaterThan(0);
  }, 120_000);
});
