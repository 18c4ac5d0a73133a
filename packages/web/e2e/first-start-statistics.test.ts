// The simulator's first start through the production start on an empty DATA_DIR (docs/history.md,
// "The first start"): the server listens before its month of past is made and answers while it is
// made; /api/health and Admin → Data say the backfill runs and how far it got; the Advanced
// Chart's statistics line says how much of the 20-day window is in so far. Once done, the chart
// has the 30 days, the statistics their 20-day window, and the same line (no reload) says so.
// One first start for all of it: each costs a month of backfill (BENCHMARKS.md §33). Under
// vitest that is the run's own (simulator-template-setup.ts), watched while it backfills
// (first-start-watch.ts); when it is too far along, a first start of this file's own.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { watchRunFirstStart } from "./first-start-watch.ts";
import { ADMIN, RETRY_RESET, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

const DAY = 86_400_000;
/**
 * A first start's month took 209 s at load 16 on 2 cores and over 330 s beside other servers: a
 * safety net for a hung backfill, not a measure of speed.
 */
const BACKFILL_LIMIT_MS = 900_000;

const root = mkdtempSync(join(tmpdir(), "spreadwatch-first-start-stats-"));
const suite = signedInSuite({
  app: async () =>
    (await watchRunFirstStart()) ??
    // A DATA_DIR of its own, empty: the app makes its own first start rather than copying one.
    startApp({ feed: "simulator", env: { DATA_DIR: join(root, "data") } }),
  as: ADMIN,
  open: { link: "Advanced Charts", path: "/advanced-chart" },
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Health {
  history: {
    fetching: boolean;
    backfill: { running: boolean; done: number; total: number } | null;
  };
}

/** A GET with the page's own session (a second admin login would end the page's). */
async function get(path: string) {
  const response = await suite.page.request.get(`${suite.app.url}${path}`, RETRY_RESET);
  // biome-ignore lint/suspicious/noExplicitAny: the answers are read field by field below
  return { status: response.status(), body: (await response.json()) as any };
}
const health = async () => (await get("/api/health")).body as Health;
const statisticsSource = () => suite.page.locator("[data-field='statistics-source']");

describe("the simulator's first start", () => {
  it(
    "answers while it backfills and says how far it got, then has the month and its statistics",
    async () => {
      const startedAt = Date.now();
      // While the month is being made: prices, health saying it backfills.
      const during = await health();
      expect(during.history.backfill).toMatchObject({ running: true, total: 30 });
      expect(during.history.fetching).toBe(true);
      const prices = await get("/api/prices");
      expect(prices.status).toBe(200);
      expect(prices.body.cme.GC.bid).toBeGreaterThan(0);
      // Admin → Data: every instrument fetching, with the backfill's progress in days.
      const rows = (await get("/api/history/coverage")).body.instruments as Array<{
        key: string;
        fetching: boolean;
        progress: { done: number; total: number };
      }>;
      const gold = rows.find((r) => r.key === "GOLD");
      expect(gold?.fetching).toBe(true);
      expect(gold?.progress.total).toBe(30);
      // The statistics say they cover only what is stored so far, and that more is coming.
      const loading = (await get("/api/spread-stats/GC_BUY")).body;
      expect(loading.coverage.loading).toBe(true);
      expect(loading.n).toBeLessThan(1_000);
      // The chart shows what is there meanwhile (never an error).
      expect((await get("/api/chart-data/GC_BUY?timeframe=1d")).status).toBe(200);
      // Still under way after all that: these answers did not wait for it.
      expect((await health()).history.backfill?.running).toBe(true);
      // The Advanced Chart's line: what the window holds so far, and that more is coming.
      await expect
        .poll(() => statisticsSource().textContent(), { timeout: 60_000 })
        .toMatch(
          /^Statistics: .+, as quoted, \d+ (minutes?|hours?) of 20 days so far — history loading$/,
        );

      // Asked once a second: a tight poll would take the CPU the backfill needs.
      await expect
        .poll(async () => (await health()).history, { timeout: BACKFILL_LIMIT_MS, interval: 1_000 })
        .toMatchObject({ fetching: false, backfill: { running: false, done: 30, total: 30 } });

      // The chart has the 30 days: its first daily candle is the IST day 30 days back.
      const days = (await get("/api/chart-data/GC_BUY?timeframe=1d")).body.data as Array<{
        timestamp: number;
      }>;
      expect(days.length).toBeGreaterThanOrEqual(30);
      expect(days[0]?.timestamp).toBeLessThanOrEqual(startedAt - 29 * DAY);
      // The rolls the month crossed are recorded (crude oil and gas roll every month, so 30 days
      // hold at least one, whatever the date), each in its 30 days.
      const rolls = (await get("/api/rolls")).body.rolls as Array<{ key: string; at: number }>;
      expect(rolls.some((r) => r.key === "CL" || r.key === "CRUDEOIL")).toBe(true);
      expect(rolls.every((r) => r.at > startedAt - 31 * DAY)).toBe(true);
      // Once stored and read in, the same line (no reload) says the window's 20 days.
      await expect
        .poll(() => statisticsSource().textContent(), { timeout: 120_000, interval: 1_000 })
        .toMatch(/^Statistics: the contracts quoted now \([A-Z0-9, ]+\), 20 days as quoted$/);
      // And the statistics it speaks of are the backfilled window, not the minutes since start.
      const stats = (await get("/api/spread-stats/GC_BUY")).body;
      expect(stats.coverage.loading).toBe(false);
      expect(stats.n).toBeGreaterThan(5_000);
      expect(stats.coverage.from).toBeLessThanOrEqual(startedAt - 19 * DAY);
    },
    BACKFILL_LIMIT_MS + 240_000,
  );
});
