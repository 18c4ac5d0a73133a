import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { addAlertButton, alertsPanel, modal, rest } from "./alerts.ts";
import { startApp } from "./harness.ts";
import { builder, fillLeg, mySpreads, ownSpreads, spreadGroup } from "./spreads.ts";
import { signedInSuite } from "./suite.ts";
import { widestReplayCsv } from "./widest-fixture.ts";

// The own-spreads screens on the widest values a row can show (widest-fixture.ts), not today's
// simulated ones: My spreads fits its box on desktop with three spreads and a bell, its row
// sheet fits a phone, the row's details and alert dialog are reachable on desktop, the texts say
// something useful (README "Spreads of your own").
const TRADER = { username: "ravi", password: "ravi-secret-1", alerts_enabled: true };

const suite = signedInSuite({
  app: () => startApp({ feed: "replay", replayCsv: widestReplayCsv() }),
  users: [TRADER],
  as: TRADER,
  page: { width: 1400, height: 900 },
  waitFor: (page) => mySpreads(page).getByRole("button", { name: "New spread" }),
});

const SPREADS = [
  {
    name: "GOLD near/next calendar",
    legs: [
      { name: "a", instrument: "GOLD", lots: 1 },
      { name: "b", instrument: "GOLD@next", lots: 1 },
    ],
    formula: "a - b",
  },
  {
    name: "Gold/Silver ratio",
    legs: [
      { name: "g", instrument: "GOLD", lots: 1 },
      { name: "s", instrument: "SILVER", lots: 1 },
    ],
    formula: "g / s",
  },
  {
    name: "Crude less natural gas",
    legs: [
      { name: "c", instrument: "CRUDEOIL", lots: 1 },
      { name: "n", instrument: "NATURALGAS", lots: 1 },
    ],
    formula: "c - n * 10",
  },
];

/** How far an element's content overflows its box, in CSS pixels (0: it fits). */
function overflow(page: Page, selector: string): Promise<number> {
  return page.locator(selector).evaluate((element) => element.scrollWidth - element.clientWidth);
}

async function createSpreads(page: Page): Promise<string[]> {
  const symbols: string[] = [];
  for (const body of SPREADS) {
    const created = await rest(page, "POST", "/api/spreads", body);
    expect(created.status).toBe(201);
    symbols.push(created.json.symbol as string);
  }
  return symbols;
}

let symbols: string[] = [];
/** The symbol of SPREADS[index], once created. */
const SP = (index: number) => symbols[index] ?? "none";

describe("My spreads", () => {
  it("fits its box at 1400 and 1280 px with three spreads and a bell", async () => {
    const { page } = suite;
    symbols = await createSpreads(page);
    const alert = await rest(page, "POST", "/api/alerts", {
      commodityType: `${symbols[0]}_BUY`,
      threshold: -5,
    });
    expect(alert.status).toBe(200);
    await page.reload();
    const panel = mySpreads(page);
    await panel.locator(`tr[data-symbol='${symbols[0]}_BUY'] button.bell`).first().waitFor();
    for (const width of [1400, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await expect
        .poll(() => overflow(page, "section.panel--my-spreads .panel__scroll"))
        .toBeLessThanOrEqual(0);
      const table = await panel.locator("table").boundingBox();
      const box = await panel.boundingBox();
      expect(table && box && table.x + table.width).toBeLessThanOrEqual(
        (box?.x ?? 0) + (box?.width ?? 0),
      );
      // Edit and the row's + are whole, inside the panel.
      for (const control of [
        panel.getByRole("button", { name: `Edit ${SPREADS[2]?.name}` }),
        panel.locator(`tr[data-symbol='${symbols[2]}_SELL']`).getByRole("button", {
          name: "Add new alert",
        }),
      ]) {
        const rect = await control.boundingBox();
        expect((rect?.x ?? 0) + (rect?.width ?? 0)).toBeLessThanOrEqual(
          (box?.x ?? 0) + (box?.width ?? 0),
        );
      }
    }
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it("opens a row's sheet on a phone without sideways scrolling", async () => {
    const { page } = suite;
    await page.setViewportSize({ width: 390, height: 844 });
    const row = mySpreads(page).locator(`tr[data-symbol='${symbols[1]}_BUY']`);
    await row.locator(".symbol__details").click();
    const sheet = page.locator("dialog.sheet");
    await sheet.waitFor();
    await expect.poll(() => overflow(page, "dialog.sheet")).toBeLessThanOrEqual(0);
    expect(await sheet.evaluate((element) => element.scrollLeft)).toBe(0);
    const open = await sheet.getByRole("button", { name: "Open chart" }).boundingBox();
    expect((open?.x ?? 0) + (open?.width ?? 0)).toBeLessThanOrEqual(390);
    await page.keyboard.press("Escape");
    await sheet.waitFor({ state: "detached" });
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it("shows z and percentile of a new spread as soon as they exist, not at the next minute's poll", async () => {
    const { page } = suite;
    await mySpreads(page).getByRole("button", { name: "New spread" }).click();
    const dialog = builder(page);
    await dialog.getByLabel("Name", { exact: true }).fill("Gold less silver");
    await fillLeg(dialog, 0, { name: "g", instrument: "GOLD" });
    await fillLeg(dialog, 1, { name: "s", instrument: "SILVER" });
    // Not g - s: the fixture lifts both legs' history alike, which g - s cancels (σ 0, no z).
    await dialog.getByLabel("Formula", { exact: true }).fill("g - 2 * s");
    await dialog.getByRole("button", { name: "Create spread" }).click();
    await dialog.waitFor({ state: "detached" });
    const symbol = (await ownSpreads(page)).find(
      (each) => each.name === "Gold less silver",
    )?.symbol;
    const row = spreadGroup(page, "Gold less silver").locator(`tr[data-symbol='${symbol}_BUY']`);
    // The page fetched the statistics at load and polls them once a minute: well before that,
    // the new spread's (from its legs' forty minutes of closes) are in its row.
    await expect
      .poll(() => row.locator("[data-col='percentile']").textContent(), { timeout: 20_000 })
      .toMatch(/^\d+\.\d$/);
    expect(await row.locator("[data-col='z']").textContent()).toMatch(/^[+-]?\d+\.\d{2}$/);
  });

  it("opens a row's details on a desk screen, with Open position", async () => {
    const { page } = suite;
    await mySpreads(page)
      .getByRole("button", { name: `Details of ${SPREADS[1]?.name} Buy`, exact: true })
      .click();
    const sheet = page.locator("dialog.sheet");
    await sheet.waitFor();
    await sheet.getByRole("button", { name: "Open position" }).waitFor();
    expect(await sheet.locator("[data-field='legs'] tr[data-leg]").count()).toBe(2);
    await page.keyboard.press("Escape");
    await sheet.waitFor({ state: "detached" });
  });

  it("offers the Metric in the row's + alert dialog and creates a z-score alert", async () => {
    const { page } = suite;
    const symbol = `${symbols[2]}_SELL`;
    await addAlertButton(page, symbol).click();
    const dialog = modal(page);
    const metric = dialog.getByLabel("Metric", { exact: true });
    // The alert form's code may still be arriving (it loads when the browser is idle).
    await metric.waitFor();
    expect(await metric.locator("option").allTextContents()).toEqual([
      "Spread",
      "Z-score",
      "Percentile",
    ]);
    await metric.selectOption("zscore");
    await dialog.getByLabel("Alert me when Z-score reaches", { exact: true }).fill("2.5");
    await dialog.getByRole("button", { name: "Create Alert" }).click();
    await dialog.waitFor({ state: "detached" });
    const { json } = await rest(page, "GET", "/api/alerts");
    const created = (
      json.alerts as { commodityType: string; metric: string; threshold: number }[]
    ).filter((alert) => alert.commodityType === symbol);
    expect(created).toEqual([expect.objectContaining({ metric: "zscore", threshold: 2.5 })]);
  });
});

describe("texts", () => {
  it("colours a difference by its sign but not a ratio, which is always positive", async () => {
    const panel = mySpreads(suite.page);
    const ratio = panel.locator(`tr[data-symbol='${SP(1)}_BUY'] [data-col='spread']`);
    const difference = panel.locator(`tr[data-symbol='${SP(2)}_BUY'] [data-col='spread']`);
    expect(await ratio.textContent()).toMatch(/^\+0\.\d{4}/);
    expect(await ratio.getAttribute("class")).not.toMatch(/positive|negative/);
    expect(await difference.textContent()).toMatch(/^\+/);
    expect(await difference.getAttribute("class")).toContain("positive");
  });

  it("shows no Telegram limit on an alert that sends to no server channel", async () => {
    const { page } = suite;
    await page.getByRole("button", { name: "Show Alerts Section" }).click();
    const item = alertsPanel(page).locator("li.alert-item").first();
    await item.waitFor();
    expect(await item.locator("[data-field='telegram']").textContent()).toBe("Off");
    expect(await item.locator("[data-field='telegram-limit']").count()).toBe(0);
    expect(await item.getByText("Telegram Limit").count()).toBe(0);
    await page.getByRole("button", { name: "Hide Alerts Section" }).click();
  });

  it("links the theme note to Profile and keeps Logout on one line on a phone", async () => {
    const { page } = suite;
    const account = page.getByRole("navigation", { name: "Account" });
    expect(await account.getByRole("link", { name: "Theme settings" }).getAttribute("href")).toBe(
      "/profile",
    );
    await page.setViewportSize({ width: 390, height: 844 });
    const lines = await account.getByRole("button", { name: "Logout" }).evaluate((button) => {
      const range = document.createRange();
      range.selectNodeContents(button);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(lines).toBe(1);
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it("says on the chart what a difference's and a ratio's values mean, with a Profile link", async () => {
    const { page } = suite;
    const note = page.getByRole("complementary", { name: "Reading the chart" });
    for (const [index, above, below] of [
      [2, "Above 0: c is higher than n * 10.", "Below 0: c is lower."],
      [1, "Above 1: g is higher than s.", "Below 1: g is lower."],
    ] as const) {
      await page.goto(suite.app.url);
      await mySpreads(page)
        .locator(`tr[data-symbol='${SP(index)}_BUY'] .symbol__chart-link`)
        .click();
      await page.waitForURL(/\/advanced-chart$/);
      await expect.poll(() => note.locator(".chart-info__above").textContent()).toBe(above);
      expect(await note.locator(".chart-info__below").textContent()).toBe(below);
    }
    const account = page.getByRole("navigation", { name: "Account" });
    expect(
      await account.getByRole("link", { name: "Profile", exact: true }).getAttribute("href"),
    ).toBe("/profile");
  });
});
