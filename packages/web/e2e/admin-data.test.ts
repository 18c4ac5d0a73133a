// Admin → Data against the real server with FEED=composite (Yahoo and a broker's JSON endpoint as
// fakes; Kite without a login): every instrument in use, where its past comes from or why it has
// none, and "Fetch again" with a progress bar while the leader fetches.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { shippedInstrument } from "@spreadwatch/core";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { istDate } from "../../api/src/feeds/providers/market-hours.ts";
import { yahooHistorySymbol } from "../../api/src/history/yahoo-chart.ts";
import { type CompositeApp, startComposite } from "./composite.ts";
import { ADMIN } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

const M = 60_000;
const suite = signedInSuite({ app: () => startComposite(), as: ADMIN, page: { width: 1400 } });
let app: CompositeApp;
let page: Page;

const row = (key: string) => page.locator(`tr[data-key='${key}']`);

beforeAll(() => {
  ({ app, page } = suite);
});

/** SHOOT_DIR=… saves the screen at a phone's and a desktop's width, light and dark. */
async function shoot(name: string) {
  const dir = process.env.SHOOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const scheme of ["light", "dark"] as const)
    for (const width of [1400, 390]) {
      await page.evaluate((theme) => {
        document.documentElement.dataset.theme = theme;
      }, scheme);
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: join(dir, `${name}-${width}-${scheme}.png`), fullPage: true });
    }
  await page.evaluate(() => {
    document.documentElement.dataset.theme = "light";
  });
  await page.setViewportSize({ width: 1400, height: 900 });
}

describe("Admin → Data", () => {
  it("lists every instrument in use with where its past comes from, or why it has none", async () => {
    await page.getByRole("link", { name: "Admin" }).click();
    await page
      .getByRole("navigation", { name: "Admin pages" })
      .getByRole("link", { name: "Data" })
      .click();
    await page.waitForURL(`${app.url}/admin/data`);
    const table = page.getByRole("table", { name: "History coverage" });
    await table.waitFor();
    // Yahoo has no chart of GC's month yet (404), Kite has no login, the broker no history.
    await row("GC")
      .getByText(/^Yahoo: HTTP 404/)
      .waitFor();
    await row("NIFTY50")
      .getByText(/^Kite: no Kite access token yet/)
      .waitFor();
    await row("GOLD").getByText("http-json serves no history").waitFor();
    expect(await row("GOLD").locator("td").nth(1).textContent()).toBe("Recorded");
    expect(await table.locator("tbody tr").count()).toBe(15);
  });

  it("Fetch again fetches the month's own symbol with a progress bar, and fills the minutes", async () => {
    const found = yahooHistorySymbol("GC", shippedInstrument("GC"), undefined, istDate(Date.now()));
    if ("missing" in found) throw new Error(found.missing);
    app.yahoo.charts.set(found.symbol, (t) => 2_650 + ((t / M) % 31) / 10);
    // The start's fetch of every key is over (no other chart request can come between), then
    // the second week's request hangs: the fetch stays on "1 of 3" while we look.
    await expect
      .poll(() => page.getByText(/^Fetching \d+ of/).count(), { timeout: 30_000 })
      .toBe(0);
    app.yahoo.chartReplies.set(app.yahoo.chartRequests + 2, "hang");
    await row("GC").getByRole("button", { name: "Fetch GC again" }).click();
    await row("GC").getByText("Fetching 1 of 3").waitFor();
    const bar = row("GC").getByRole("progressbar");
    expect(await bar.getAttribute("value")).toBe("1");
    expect(await bar.getAttribute("max")).toBe("3");
    await expect
      .poll(
        async () => Number((await row("GC").locator("td.num").textContent())?.replace(/,/g, "")),
        {
          timeout: 15_000,
        },
      )
      .toBeGreaterThan(1_000);
    expect(await row("GC").locator("td").first().textContent()).toBe(found.contract);
    expect(await row("GC").locator("td").nth(1).textContent()).toBe("Yahoo");
    await shoot("admin-data");
  });
});
