// A first start with real providers' past (docs/history.md, "History per exchange contract"): the
// production build (`node scripts/start.mjs`) with FEED=composite on an empty DATA_DIR, a fake
// Kite (login, instruments lists, historical minute candles with its 3 requests a second
// enforced: more get a 429) and a fake Yahoo (quotes and the v8 chart API) on loopback, both
// answering in the real shapes. The admin logs in to Kite; the bench times from the login's
// callback until every default spread (the ten BUY/SELL) has statistics over 20 days of fetched
// one-minute history, and every leg's coverage reaches back 20 days. Goal: ≤ 60 s. Prints the
// figure, the 429s Kite answered, the load average and the peak RSS (Linux /proc).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { INSTRUMENTS, SPREAD_SYMBOLS, shippedInstrument } from "@spreadwatch/core";
import { istDate } from "../src/feeds/providers/market-hours.ts";
import { yahooHistorySymbol } from "../src/history/yahoo-chart.ts";
import {
  acceptLoginOfTheDay,
  FakeKite,
  instrumentRow,
  instrumentsCsv,
} from "../test/fakes/fake-kite.ts";
import { FakeYahoo } from "../test/fakes/fake-yahoo.ts";
import { HttpClient } from "../test/http-client.ts";
import { listeningUrl, runMain } from "../test/server.ts";

const M = 60_000;
const DAY = 86_400_000;
const FETCH_DAYS = 20;
const DEADLINE_S = Number(process.env.BENCH_PROVIDER_HISTORY_DEADLINE_SECONDS ?? 300);
const ADMIN = { username: "admin", password: "provider-history-bench" };

/** Each MCX future's fake level (near parity with its CME twin at USDINR 84), and the CME twin's. */
const LEVELS: Record<string, { mcx: number; cme: number }> = {
  GC: { mcx: 76_800, cme: 2_680 },
  SI: { mcx: 88_700, cme: 31 },
  HG: { mcx: 844, cme: 4.3 },
  NG: { mcx: 285, cme: 3.2 },
  CL: { mcx: 6_230, cme: 70 },
};
/** A deterministic wander around a level: a few tenths of a percent, minute by minute. */
const wander = (level: number, period: number) => (t: number) =>
  level * (1 + 0.002 * Math.sin(t / M / period) + 0.0005 * Math.sin(t / M / 7));

function peakRssMB(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Math.round(Number(match?.[1] ?? Number.NaN) / 1024);
}

const dir = mkdtempSync(join(tmpdir(), "spreadwatch-provider-history-"));
const [kite, yahoo] = await Promise.all([new FakeKite().start(), new FakeYahoo().start()]);
const main = (() => {
  acceptLoginOfTheDay(kite);
  const day = istDate(Date.now());
  const mcxRows: string[] = [];
  const kiteKeys: string[] = [];
  const yahooKeys: string[] = [];
  INSTRUMENTS.forEach((inst, i) => {
    const level = LEVELS[inst.id] as { mcx: number; cme: number };
    const token = 53_000_000 + i;
    const name = inst.mcxKey;
    mcxRows.push(
      instrumentRow({
        token,
        tradingsymbol: `${name}99DECFUT`,
        name,
        expiry: "2099-12-05",
        segment: "MCX-FUT",
        exchange: "MCX",
      }),
    );
    kite.historical.set(token, wander(level.mcx, 37 + i));
    kiteKeys.push(name);
    const found = yahooHistorySymbol(inst.id, shippedInstrument(inst.id), undefined, day);
    if ("missing" in found) throw new Error(found.missing);
    yahoo.charts.set(found.symbol, wander(level.cme, 29 + i));
    yahooKeys.push(inst.id);
  });
  kite.instruments.set("MCX", instrumentsCsv(mcxRows));
  kite.instruments.set(
    "CDS",
    instrumentsCsv([
      instrumentRow({
        token: 412_675,
        tradingsymbol: "USDINR99DECFUT",
        name: "USDINR",
        expiry: "2099-12-29",
        segment: "CDS-FUT",
        exchange: "CDS",
      }),
    ]),
  );
  kite.historical.set(412_675, wander(84, 11));
  kiteKeys.push("USDINR");
  const marketData = join(dir, "market-data.json");
  writeFileSync(
    marketData,
    JSON.stringify({
      providers: {
        kite: { type: "kite", keys: kiteKeys, hours: "always" },
        yahoo: {
          type: "yahoo",
          keys: yahooKeys,
          baseUrl: yahoo.url,
          cookieUrl: yahoo.cookieUrl,
        },
      },
    }),
  );
  return runMain({
    DATA_DIR: join(dir, "data"),
    FEED: "composite",
    MARKET_DATA_CONFIG: marketData,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    HISTORY_FETCH_DAYS: String(FETCH_DAYS),
    ...kite.env(),
  });
})();

interface Row {
  key: string;
  from: number | null;
  minutes: number;
  fetching: boolean;
}

try {
  const url = await listeningUrl(main);
  const admin = new HttpClient(url);
  if ((await admin.post("/api/auth/login", ADMIN)).status !== 200)
    throw new Error("no admin login");
  const login = await admin.get("/api/kite/login");
  const redirect = new URL(login.headers.location as string).searchParams.get("redirect_params");
  const state = new URLSearchParams(redirect ?? "").get("state");
  const callback = await admin.get(`/api/kite/callback?request_token=req-good&state=${state}`);
  if (callback.headers.location !== "/admin?kite=connected")
    throw new Error(`Kite login: ${callback.status} ${callback.headers.location}`);
  const loggedIn = Date.now();
  const started = performance.now();
  // 20 days back from the login, less a weekend's slack: the markets' first minute in the window.
  const reach = loggedIn - FETCH_DAYS * DAY + 3 * DAY;
  let legsAt: number | undefined;
  let statsAt: number | undefined;
  let last = "";
  let gcBuy: { n: number; coverage: unknown } | undefined;
  while (performance.now() - started < DEADLINE_S * 1000 && statsAt === undefined) {
    const seconds = (performance.now() - started) / 1000;
    if (legsAt === undefined) {
      const rows = (await admin.get("/api/history/coverage")).body.instruments as Row[];
      const legs = [...INSTRUMENTS.flatMap((i) => [i.mcxKey, i.id]), "USDINR"];
      const ready = legs.filter((k) => {
        const row = rows.find((r) => r.key === k);
        return (
          row && !row.fetching && row.minutes > 0 && (row.from ?? Number.POSITIVE_INFINITY) <= reach
        );
      });
      last = `legs ${ready.length}/${legs.length}`;
      if (ready.length === legs.length) legsAt = seconds;
    }
    if (legsAt !== undefined) {
      const answers = await Promise.all(
        SPREAD_SYMBOLS.map(async (s) => (await admin.get(`/api/spread-stats/${s}`)).body),
      );
      const ready = answers.filter(
        (a) => a.n > 0 && a.coverage?.from !== null && a.coverage.from <= reach,
      );
      last = `statistics ${ready.length}/${SPREAD_SYMBOLS.length}`;
      if (ready.length === SPREAD_SYMBOLS.length) statsAt = seconds;
      gcBuy = { n: answers[0].n, coverage: answers[0].coverage };
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  const tooMany = kite.historicalRequests.filter((r) => r.status === 429).length;
  const result = {
    bench: "provider-history",
    legsSeconds: legsAt === undefined ? null : Number(legsAt.toFixed(1)),
    statsSeconds: statsAt === undefined ? null : Number(statsAt.toFixed(1)),
    kiteRequests: kite.historicalRequests.length,
    kite429: tooMany,
    yahooChartRequests: yahoo.chartRequests,
    peakRssMB: main.child.pid ? peakRssMB(main.child.pid) : null,
    load: loadavg().map((l) => Number(l.toFixed(2))),
    fetchDays: FETCH_DAYS,
    gcBuy,
  };
  console.log(
    statsAt === undefined
      ? `provider history: not ready within ${DEADLINE_S} s (${last})`
      : `provider history: ${FETCH_DAYS} days of every leg after ${result.legsSeconds} s, statistics of ` +
          `the ${SPREAD_SYMBOLS.length} default spreads after ${result.statsSeconds} s of the Kite login ` +
          `(goal ≤ 60); Kite ${result.kiteRequests} historical requests (${tooMany} answered 429), ` +
          `Yahoo ${result.yahooChartRequests} chart requests; peak RSS ${result.peakRssMB} MB; load ${result.load.join(" ")}`,
  );
  console.log(`RESULT ${JSON.stringify(result)}`);
} finally {
  main.child.kill("SIGTERM");
  await main.exited;
  await Promise.all([kite.stop(), yahoo.stop()]);
  rmSync(dir, { recursive: true, force: true });
}
