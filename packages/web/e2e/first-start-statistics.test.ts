// A first start on an empty DATA_DIR (the simulator's month of past made after the server listens:
// docs/history.md, "The first start"): the Advanced Chart's statistics line says how much of the
// 20-day window is in while the backfill runs, and says the 20 days once the statistics have
// read the month in.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ADMIN, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

const DAY = 86_400_000;
/**
 * A first start's month took 209 s at load 16 on 2 cores and over 330 s beside other servers: a
 * safety net for a hung backfill, not a measure of speed.
 */
const BACKFILL_LIMIT_MS = 900_000;

const root = mkdtempSync(join(tmpdir(), "spreadwatch-first-start-stats-"));
// A DATA_DIR of its own, empty: the app makes its own first start rather than copying the run's.
const suite = signedInSuite({
  app: () => startApp({ feed: "simulator", env: { DATA_DIR: join(root, "data") } }),
  as: ADMIN,
  open: { link: "Advanced Charts", path: "/advanced-chart" },
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const statisticsSource = () => suite.page.locator("[data-field='statistics-source']");

describe("the statistics line while a first start's history loads", () => {
  it(
    "says how much is in so far while the backfill runs, and the 20 days once it is read in",
    async () => {
      const startedAt = Date.now();
      const { page } = suite;
      // While the month is being made: what the window holds so far, and that more is coming.
      await expect
        .poll(() => statisticsSource().textContent(), { timeout: 60_000 })
        .toMatch(
          /^Statistics: .+, as quoted, \d+ (minutes?|hours?) of 20 days so far — history loading$/,
        );
      // Once stored and read in, the same line (no reload) says the window's 20 days.
      await expect
        .poll(() => statisticsSource().textContent(), {
          timeout: BACKFILL_LIMIT_MS,
          interval: 2_000,
        })
        .toMatch(/^Statistics: the contracts quoted now \([A-Z0-9, ]+\), 20 days as quoted$/);
      // And the statistics it speaks of are the backfilled window, not the minutes since start.
      const stats = (await (
        await page.request.get(`${suite.app.url}/api/spread-stats/GC_BUY`)
      ).json()) as { coverage: { from: number; loading: boolean } };
      expect(stats.coverage.loading).toBe(false);
      expect(stats.coverage.from).toBeLessThanOrEqual(startedAt - 19 * DAY);
    },
    BACKFILL_LIMIT_MS + 60_000,
  );
});
