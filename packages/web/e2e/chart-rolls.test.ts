import { rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { historyDataDir } from "./alert-history-data.ts";
import { rest } from "./alerts.ts";
import { chartFixtureCsv, fixtureStart } from "./chart-fixtures.ts";
import { chartWith, markChart, rebuilt } from "./chart-page.ts";
import { ADMIN, startApp } from "./harness.ts";
import { seedRolls } from "./roll-data.ts";
import { signedInSuite } from "./suite.ts";

// Five minutes of GC_BUY in which GOLD rolls at the start of the fourth: the spread opens 50
// above the third minute's close, as a new contract's premium does. [open, high, low, close]
const MINUTES = [
  [10, 12, 8, 11],
  [11, 14, 10, 13],
  [13, 15, 12, 14],
  [64, 66, 63, 65],
  [65, 67, 64, 66],
] as const;
const MINUTE = 60_000;
const start = fixtureStart();
const rollAt = start + 3 * MINUTE;
const dataDir = historyDataDir();

const suite = signedInSuite({
  app: async () => {
    const app = await startApp({
      feed: "replay",
      replayCsv: chartFixtureCsv(start, MINUTES),
      env: { DATA_DIR: dataDir },
    });
    seedRolls(dataDir, [
      { key: "GOLD", at: rollAt, from: "GOLD26FEBFUT", to: "GOLD26APRFUT" },
      // Not a leg of GC_BUY: drawn on the silver spreads only.
      { key: "SILVER", at: start + 30_000, from: "SILVER26MARFUT", to: "SILVER26MAYFUT" },
    ]);
    return app;
  },
  as: ADMIN,
  open: { link: "Advanced Charts", path: "/advanced-chart" },
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const marks = () => suite.page.locator(".chart-roll");
const statisticsSource = () => suite.page.locator("[data-field='statistics-source']");
const adjustToggle = () => suite.page.getByRole("button", { name: "Back-adjusted" });

/** A column of the chart's data (1 close, 2 open) to the cent: the replay's GOLD asks carry 6 decimals. */
function column(page: Page, index: number): Promise<number[]> {
  return page.evaluate(
    (i) =>
      [...(window.__spreadChart?.data[i] ?? [])].map((v) => Math.round((v as number) * 100) / 100),
    index,
  );
}

const closes = (page: Page) => column(page, 1);

/** Canvas pixels of the line's colour in the plot between two times, away from both points. */
function linePixelsBetween(page: Page, from: number, to: number): Promise<number> {
  return page.evaluate(
    ([t0, t1]) => {
      const u = window.__spreadChart;
      if (!u) throw new Error("no chart");
      const probe = document.createElement("canvas").getContext("2d");
      if (!probe) throw new Error("no 2d context");
      probe.fillStyle = getComputedStyle(document.documentElement)
        .getPropertyValue("--accent")
        .trim();
      probe.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0] = probe.getImageData(0, 0, 1, 1).data;
      const margin = 12;
      const x0 = Math.round(u.valToPos(t0 as number, "x", true)) + margin;
      const x1 = Math.round(u.valToPos(t1 as number, "x", true)) - margin;
      const { top, height } = u.bbox;
      const px = u.ctx.getImageData(x0, top, x1 - x0, height).data;
      let count = 0;
      for (let i = 0; i < px.length; i += 4) {
        const near =
          Math.abs((px[i] ?? 0) - r) < 24 &&
          Math.abs((px[i + 1] ?? 0) - g) < 24 &&
          Math.abs((px[i + 2] ?? 0) - b) < 24;
        if (near && (px[i + 3] ?? 0) > 200) count++;
      }
      return count;
    },
    [from, to],
  );
}

describe("rolls on the Advanced Spread Chart", () => {
  it("marks the roll of a leg with its label, where it happened, and no other key's", async () => {
    await markChart(suite.page);
    await suite.page.getByLabel("Timeframe").selectOption("1m");
    await rebuilt(suite.page, 5);
    await marks().first().waitFor();
    expect(await marks().count()).toBe(1);
    const gold = suite.page.locator(".chart-roll[data-roll-key='GOLD']");
    expect(await gold.textContent()).toBe("GOLD near: 26FEB → 26APR");
    expect(await gold.getAttribute("data-roll-at")).toBe(String(rollAt));
    // Between the third minute's point and the fourth's, on the screen.
    const [x, before, after] = await suite.page.evaluate(
      ([t, a, b]) => {
        const u = window.__spreadChart;
        if (!u) throw new Error("no chart");
        const mark = document.querySelector(".chart-roll") as HTMLElement;
        const left = mark.getBoundingClientRect().left - u.over.getBoundingClientRect().left;
        return [left, u.valToPos(a as number, "x"), u.valToPos(b as number, "x"), t];
      },
      [rollAt, start + 2 * MINUTE, start + 3 * MINUTE],
    );
    expect(x).toBeGreaterThan(before as number);
    expect(x).toBeLessThanOrEqual((after as number) + 1);
  });

  it("is unadjusted by default and never joins the two contracts' candles", async () => {
    expect(await closes(suite.page)).toEqual([11, 13, 14, 65, 66]);
    expect(await adjustToggle().getAttribute("aria-pressed")).toBe("false");
    // The replay names no contracts: the statistics are of the recorded series, as quoted.
    await expect
      .poll(() => statisticsSource().textContent())
      .toBe("Statistics: the recorded series, 20 days as quoted");
    // The line is drawn between the other minutes, and broken across the roll.
    await expect
      .poll(() => linePixelsBetween(suite.page, start + MINUTE, start + 2 * MINUTE))
      .toBeGreaterThan(5);
    expect(await linePixelsBetween(suite.page, start + 2 * MINUTE, rollAt)).toBe(0);
  });

  it("back-adjusts on request: candles before the roll move by its gap, later ones stay", async () => {
    await adjustToggle().click();
    expect(await adjustToggle().getAttribute("aria-pressed")).toBe("true");
    // The gap: the fourth minute's open (64) minus the third's close (14) = 50.
    await expect.poll(() => closes(suite.page)).toEqual([61, 63, 64, 65, 66]);
    expect(await column(suite.page, 2)).toEqual([60, 61, 63, 64, 65]);
    // The server's adjust=back gives the same candles; the statistics stay as quoted.
    const { status, json } = await rest(
      suite.page,
      "GET",
      "/api/chart-data/GC_BUY?timeframe=1m&adjust=back",
    );
    expect(status).toBe(200);
    const served = (json as { data: { close: number }[] }).data;
    expect(served.map((c) => Math.round(c.close * 100) / 100)).toEqual([61, 63, 64, 65, 66]);
    expect(await statisticsSource().textContent()).toMatch(/20 days as quoted$/);
    // Download CSV saves what is drawn, under a name that says it is adjusted.
    const [download] = await Promise.all([
      suite.page.waitForEvent("download"),
      suite.page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("GC_BUY-1m-back-adjusted.csv");
    const rows = (await readFile(await download.path(), "utf8")).trim().split("\n").slice(1);
    expect(rows.map((row) => Math.round(Number(row.split(",").at(-1)) * 100) / 100)).toEqual([
      61, 63, 64, 65, 66,
    ]);
    await adjustToggle().click();
    await expect.poll(() => closes(suite.page)).toEqual([11, 13, 14, 65, 66]);
  });

  it("shows the other leg's rolls on its own spread, and no toggle where nothing rolled", async () => {
    await suite.page.getByLabel("Commodity").selectOption("SI_BUY");
    await chartWith(suite.page, 1);
    await suite.page.locator(".chart-roll[data-roll-key='SILVER']").waitFor();
    expect(await suite.page.locator(".chart-roll[data-roll-key='GOLD']").count()).toBe(0);
    expect(await suite.page.locator(".chart-roll").textContent()).toBe(
      "SILVER near: 26MAR → 26MAY",
    );
    await suite.page.getByLabel("Commodity").selectOption("HG_BUY");
    await expect.poll(() => suite.page.locator(".chart-roll").count()).toBe(0);
    expect(await adjustToggle().count()).toBe(0);
  });
});
