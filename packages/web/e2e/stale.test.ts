import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oldFixtureCsv } from "./fixtures.ts";
import { ADMIN, launchBrowser, login, newPage, type RunningApp, startApp } from "./harness.ts";

let app: RunningApp;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  app = await startApp({ feed: "replay", replayCsv: oldFixtureCsv() });
  browser = await launchBrowser();
  page = await newPage(browser);
  await login(page, app.url, ADMIN.username, ADMIN.password);
  await page.locator("tr[data-key='cme:GC'] [data-col='bid']").waitFor();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("dashboard replaying quotes from 2024", () => {
  it("marks every raw price row stale", async () => {
    const rows = page.getByRole("table", { name: "Prices" }).locator("tbody tr");
    const stale = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-stale")));
    expect(stale).toEqual(Array(10).fill("true"));
    expect(await rows.locator(".stale-badge").count()).toBe(10);
  });

  it("shows the quotes' own time in IST", async () => {
    // 2024-03-15T09:30:01Z (the second quote, CME GC) is 15:00:01 IST.
    const text = await page.locator("tr[data-key='cme:GC'] [data-col='timestamp']").textContent();
    expect(text).toMatch(/^15\/0?3\/2024, 3:00:01 pm IST/);
  });

  it("still shows the prices and spreads they carry", async () => {
    expect(await page.locator("tr[data-key='cme:GC'] [data-col='bid']").textContent()).toBe(
      "2650.000",
    );
    expect(await page.locator("tr[data-symbol='GC_BUY'] [data-col='spread']").textContent()).toBe(
      "+128.38",
    );
  });
});
