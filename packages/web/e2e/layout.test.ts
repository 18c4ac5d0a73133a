import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { addAlertButton, bells, popup, spreadRow } from "./alerts.ts";
import { ADMIN, type RestartableApp, startApp } from "./harness.ts";
import { ALERTS, alertsAtTheSpread, everyRowStale, layoutFaults } from "./layout.ts";
import { signedInSuite } from "./suite.ts";
import { widestSwingingFixture } from "./widest-fixture.ts";

// The dashboard's layout invariants, with the widest values a row can show (widest-fixture.ts,
// stepping every second so alerts fire), with
// toasts showing and bells on the rows (three on GC_BUY, two on SI_SELL and CL_BUY, five
// folded into "+n" on HG_SELL), first
// live, then with every row stale (the server halted): no table wider than its box, no header
// cut off, no Alerts cell on two lines, no Spread row taller than the others, nothing scrolling
// sideways, no toast over a table, scrolled or not (layout.ts says how each is measured); and on
// a phone the header scrolls away (or folds to one line). Waits are upper bounds.
const WAIT = { timeout: 60_000 };
const DESKTOPS = [1920, 1680, 1440, 1400, 1366, 1280, 1279, 1220];
const PHONES = [480, 428, 414, 390, 375, 360];

const suite = signedInSuite<RestartableApp>({
  app: () => startApp(widestSwingingFixture()),
  as: ADMIN,
  page: { width: 1400, height: 900 },
  waitFor: (page) => addAlertButton(page, "GC_BUY"),
});

async function resize(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
}

/** Scrolls whatever scrolls the dashboard, as a mouse wheel over the Spread table would. */
async function wheel(page: Page, deltaY: number): Promise<void> {
  const table = await page.locator("table[aria-label='Spread']").boundingBox();
  const viewport = page.viewportSize();
  if (!table || !viewport) throw new Error("no Spread table");
  await page.mouse.move(table.x + table.width / 2, Math.min(table.y + 40, viewport.height / 3));
  await page.mouse.wheel(0, deltaY);
}

/** The layout's faults at `width`, at the top of the page and scrolled to its end. */
async function faultsAt(width: number): Promise<string[]> {
  const { page } = suite;
  await resize(page, width);
  await expect.poll(() => layoutFaults(page), { timeout: 5_000 }).toEqual([]);
  await wheel(page, 5_000);
  try {
    // Scrolled to the end, the last rows sit just above the toasts, never under them.
    await expect.poll(() => layoutFaults(page), { timeout: 5_000 }).toEqual([]);
  } finally {
    await wheel(page, -5_000);
  }
  return layoutFaults(page);
}

function checkEveryWidth(): void {
  it.each(DESKTOPS)("holds at %i px", async (width) => {
    expect(await popup(suite.page).isVisible()).toBe(true);
    expect(await faultsAt(width)).toEqual([]);
  });

  it.each(PHONES)("holds on a phone %i px wide", async (width) => {
    expect(await popup(suite.page).isVisible()).toBe(true);
    expect(await faultsAt(width)).toEqual([]);
  });
}

describe("the dashboard's layout, live", () => {
  it("gets bells on its rows and toasts from their firings", async () => {
    const { page } = suite;
    await alertsAtTheSpread(page);
    await page.reload();
    await popup(page).locator("[data-notification]").first().waitFor(WAIT);
    expect(await bells(page, "GC_BUY").count()).toBe(3);
    expect(await bells(page, "SI_SELL").count()).toBe(2);
  });

  it("folds a row's alerts past three into +n, which shows them all", async () => {
    const { page } = suite;
    expect(await bells(page, "HG_SELL").count()).toBe(2);
    const more = spreadRow(page, "HG_SELL").locator("[data-alert-more]");
    expect(await more.textContent()).toBe("+3");
    expect(await more.getAttribute("aria-label")).toBe("3 more alerts: show all");
    await more.click();
    const sheet = page.locator("dialog.sheet");
    await sheet.waitFor();
    try {
      expect(await sheet.getByRole("heading", { level: 2 }).textContent()).toBe(
        "Copper Sell · HG_SELL",
      );
      expect(await sheet.locator(".row-details__alert").count()).toBe(ALERTS.HG_SELL);
      // The click stays on the button: the row's own click would have opened the chart.
      expect(new URL(page.url()).pathname).toBe("/");
    } finally {
      await sheet.getByRole("button", { name: "Close details" }).click();
      await sheet.waitFor({ state: "detached" });
    }
  });

  checkEveryWidth();

  it("lets a phone's header scroll away, leaving the screen to the tables", async () => {
    const { page } = suite;
    await resize(page, 390);
    try {
      const header = page.locator("header.app-header");
      const before = await header.boundingBox();
      // It did take a good part of the screen: the title, the account links, the theme note.
      expect(before?.height).toBeGreaterThan(56);
      await wheel(page, 400);
      await expect
        .poll(async () => {
          const box = await header.boundingBox();
          return !box || box.y + box.height <= 0 || box.height <= 56;
        })
        .toBe(true);
    } finally {
      await wheel(page, -5_000);
      await resize(page, 1400);
    }
  });
});

describe("the dashboard's layout with every row stale", () => {
  it("greys every row once the server has been away over 10 s", async () => {
    await suite.app.halt();
    await everyRowStale(suite.page);
    expect(await suite.page.locator(".leg-warning").first().textContent()).toBe("stale");
  });

  checkEveryWidth();
});
