import { rmSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import {
  disableWithReason,
  historyDataDir,
  sampleHistory,
  seedUserFirings,
} from "./alert-history-data.ts";
import { addAlertButton, alertsPanel, rest, trpcInput } from "./alerts.ts";
import { freshFixture } from "./fixtures.ts";
import { signIn, startApp } from "./harness.ts";
import { procedure } from "./requests.ts";
import { closePage, openPage } from "./spare-page.ts";
import { signedInSuite } from "./suite.ts";

// The fixture's spreads hold still, so nothing fires on its own: the History rows are seeded
// into the app's database as the engine writes them, and the tests read them through the UI.

const TRADER = { username: "trader", password: "trader-secret", alerts_enabled: true };
/** A trader whose History is exactly one page long. */
const ONE_PAGE = { username: "onepage", password: "onepage-secret", alerts_enabled: true };
const REASON = "Telegram limit 3 of 3 reached at 14:02 IST";
const dataDir = historyDataDir();

const suite = signedInSuite({
  app: () => startApp(freshFixture({ DATA_DIR: dataDir })),
  users: [TRADER, ONE_PAGE],
  as: TRADER,
  waitFor: (page) => addAlertButton(page, "GC_BUY"),
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function openSection(page: Page): Promise<void> {
  const toggle = page.getByRole("button", { name: /Show Alerts Section|Hide Alerts Section/ });
  await toggle.waitFor();
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await page.getByRole("tablist", { name: "Alerts section" }).waitFor();
}

const tab = (page: Page, name: string) => page.getByRole("tab", { name, exact: true });
const historyTable = (page: Page) => page.getByRole("table", { name: "Alert history" });
const historyRows = (page: Page) => historyTable(page).locator("tbody tr");

async function createAlert(page: Page, body: Record<string, unknown>): Promise<number> {
  const { status, json } = await rest(page, "POST", "/api/alerts", body);
  expect(status).toBe(200);
  return (json.alert as { id: number }).id;
}

describe("the alert form's metric", () => {
  it("creates a z-score alert through the form and lists it with its metric", async () => {
    const { page } = suite;
    await openSection(page);
    await alertsPanel(page).getByRole("button", { name: "Add Alert" }).click();
    const form = page.getByRole("form", { name: "Add Alert" });
    await form.getByLabel("Commodity").selectOption("SI_SELL");
    await form.getByLabel("Metric").selectOption("zscore");
    expect(await form.locator("[data-field='metric-hint']").textContent()).toMatch(
      /standard deviations .* 20-day mean/,
    );
    expect(await form.getByLabel("Threshold", { exact: true }).getAttribute("placeholder")).toBe(
      "-20 to 20",
    );
    // Out of the z-score's range: refused before any request, with a sentence.
    await form.getByLabel("Threshold", { exact: true }).fill("25");
    await form.getByRole("button", { name: "Create Alert" }).click();
    await alertsPanel(page).getByText("A Z-score threshold must be from -20 to 20.").waitFor();

    await form.getByLabel("Threshold", { exact: true }).fill("-2.5");
    await form.getByLabel("Re-arm after moving back (optional)").fill("0.5");
    await form.getByLabel("Webhook").check();
    await form.getByText("Set the webhook URL on the").waitFor();
    const sent = page.waitForRequest(procedure("alerts.create"));
    await form.getByRole("button", { name: "Create Alert" }).click();
    expect(trpcInput(await sent)).toMatchObject({
      commodityType: "SI_SELL",
      metric: "zscore",
      threshold: -2.5,
      hysteresis: 0.5,
      webhookNotify: true,
    });
    const item = alertsPanel(page).locator(".alert-item").filter({ hasText: "Silver Sell" });
    await item.waitFor();
    expect(await item.locator("[data-field='metric']").textContent()).toBe("Z-score");
    expect(await item.locator(".alert-item__threshold").textContent()).toBe("-2.50");
    expect(await item.locator("[data-field='hysteresis']").textContent()).toBe("0.50");
    // This trader has saved no webhook yet: the row says so.
    await item
      .locator("[data-field='webhook']")
      .getByText("On (no webhook set)", { exact: true })
      .waitFor();
  });

  it("a percentile alert waits for statistics the browser does not have", async () => {
    const { page } = suite;
    await createAlert(page, { commodityType: "CL_BUY", threshold: 95, metric: "percentile" });
    await page.reload();
    await openSection(page);
    const item = alertsPanel(page).locator(".alert-item").filter({ hasText: "Crude Oil Buy" });
    await item.locator("[data-field='metric']").getByText("Percentile").waitFor();
    await item
      .locator("[data-field='waiting']")
      .getByText(/Waiting for statistics/)
      .waitFor();
    // A spread alert never waits.
    await createAlert(page, { commodityType: "NG_BUY", threshold: 1 });
    await page.reload();
    await openSection(page);
    const spread = alertsPanel(page).locator(".alert-item").filter({ hasText: "Natural Gas Buy" });
    await spread.waitFor();
    expect(await spread.locator("[data-field='waiting']").count()).toBe(0);
    expect(await spread.locator("[data-field='metric']").count()).toBe(0);
  });

  it("a disabled alert says why, until it is enabled again", async () => {
    const { page } = suite;
    const id = await createAlert(page, { commodityType: "HG_BUY", threshold: 0.5 });
    disableWithReason(dataDir, id, REASON);
    await page.reload();
    await openSection(page);
    const item = alertsPanel(page).locator(`.alert-item[data-alert-id='${id}']`);
    expect(await item.locator("[data-field='disabled-reason']").textContent()).toBe(REASON);
    await item.getByRole("button", { name: "Enable" }).click();
    await item.locator("[data-field='disabled-reason']").waitFor({ state: "detached" });
    expect(await item.getAttribute("data-enabled")).toBe("true");
  });
});

describe("the History tab", () => {
  it("lists firings newest first with channel states, held notes and Load older", async () => {
    const { page } = suite;
    const alertId = await createAlert(page, { commodityType: "GC_BUY", threshold: 100 });
    const base = Date.UTC(2026, 10, 23, 8, 32, 0); // 14:02 IST
    seedUserFirings(dataDir, sampleHistory(TRADER.username, alertId, base, 23));
    await openSection(page);
    await tab(page, "History").click();
    await historyTable(page).waitFor();
    expect(await tab(page, "History").getAttribute("aria-selected")).toBe("true");

    const rows = historyRows(page);
    expect(await rows.count()).toBe(20);
    const first = rows.first();
    expect(await first.locator("[data-col='time']").textContent()).toBe(
      "23/11/2026, 2:02:00 pm IST",
    );
    expect(await first.locator("[data-col='symbol']").textContent()).toBe("Gold Buy");
    expect(await first.locator("[data-col='metric']").textContent()).toBe("Z-score");
    expect(await first.locator("[data-col='value']").textContent()).toBe("2.31");
    expect(await first.locator("[data-col='threshold']").textContent()).toBe("2.00");
    expect(await first.locator("[data-col='direction']").textContent()).toBe("⬆ crossed above");
    expect(await first.locator(".history__channel").allTextContents()).toEqual([
      "Telegram: sent (1 attempt)",
      "Webhook: pending (2 attempts)",
    ]);
    const held = rows.nth(1);
    expect(await held.getAttribute("data-state")).toBe("held");
    expect(await held.locator("[data-col='direction']").textContent()).toBe("⬇ crossed below");
    expect(await held.locator("[data-field='held']").textContent()).toBe(
      "Held: MCX GOLD quote stale (no quote for 12 s)",
    );

    const times = async () =>
      (await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-firing-id")))).length;
    await page.getByRole("button", { name: "Load older" }).click();
    await expect.poll(times, { timeout: 10_000 }).toBe(25);
    await page.getByRole("button", { name: "Load older" }).waitFor({ state: "detached" });
    const last = rows.last();
    expect(await last.locator("[data-col='value']").textContent()).toBe("122.00");
    // Newest first across both pages.
    const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.textContent));
    expect(new Set(ids).size).toBe(25);
  });

  it("drops Load older when a history of exactly one page has nothing older", async () => {
    const page = await openPage(suite.browser);
    try {
      await signIn(page, suite.app.url, ONE_PAGE.username, ONE_PAGE.password);
      const alertId = await createAlert(page, { commodityType: "CL_BUY", threshold: 1 });
      const base = Date.UTC(2026, 10, 23, 8, 32, 0);
      seedUserFirings(dataDir, sampleHistory(ONE_PAGE.username, alertId, base, 18));
      await page.reload();
      await openSection(page);
      await tab(page, "History").click();
      await expect.poll(() => historyRows(page).count()).toBe(20);
      const more = page.getByRole("button", { name: "Load older" });
      await more.click();
      await more.waitFor({ state: "detached" });
      expect(await historyRows(page).count()).toBe(20);
    } finally {
      await closePage(page);
    }
  });

  it("shows a browser firing reported with its value", async () => {
    const { page } = suite;
    const alertId = await createAlert(page, { commodityType: "SI_BUY", threshold: 50 });
    const fired = await rest(page, "POST", `/api/alerts/${alertId}/trigger`, {
      value: 51.25,
      metric: "spread",
      direction: "above",
    });
    expect(fired.status).toBe(200);
    await page.reload();
    await openSection(page);
    await tab(page, "History").click();
    const row = historyTable(page).locator("tr[data-source='browser']");
    await row.waitFor();
    expect(await row.locator("[data-col='symbol']").textContent()).toBe("Silver Buy");
    expect(await row.locator(".history__channel").allTextContents()).toEqual([
      "Browser: sent (1 attempt)",
    ]);
  });

  it("shows a position's target as its net ₹ against the level, not as a deleted alert", async () => {
    const { page } = suite;
    const [id] = seedUserFirings(dataDir, [
      {
        username: TRADER.username,
        alertId: null,
        symbol: "GC_SELL",
        metric: "net",
        value: 12_400,
        threshold: 12_000,
        direction: "above",
        firedAt: Date.UTC(2026, 10, 24, 9, 0),
        note: "BUY 2 × GC: net ₹12,400 reached target ₹12,000",
        outbox: [["telegram", 0, "sent"]],
      },
    ]);
    await page.reload();
    await openSection(page);
    await tab(page, "History").click();
    const row = historyTable(page).locator(`tr[data-firing-id='${id}']`);
    await row.waitFor();
    expect(await row.locator("[data-col='symbol']").textContent()).toBe("Gold Sell");
    expect(await row.locator("[data-col='metric']").textContent()).toBe("Position net ₹");
    expect(await row.locator("[data-col='value']").textContent()).toBe("₹12,400");
    expect(await row.locator("[data-col='threshold']").textContent()).toBe("₹12,000");
    expect(await row.locator("[data-col='channels']").textContent()).toContain(
      "BUY 2 × GC: net ₹12,400 reached target ₹12,000",
    );
  });

  it("fits a 390 px phone without sideways scrolling", async () => {
    const phone = await openPage(suite.browser, { width: 390, height: 844 });
    await signIn(phone, suite.app.url, TRADER.username, TRADER.password);
    // Not the + button: on a phone a row with alerts shows one bell with a count instead, and
    // earlier tests gave GC_BUY alerts (the + was seen only while the desktop layout flashed by).
    await phone.locator("tr[data-symbol='GC_BUY']").waitFor();
    await openSection(phone);
    await alertsPanel(phone).getByRole("button", { name: "Add Alert" }).click();
    const overflow = () =>
      phone.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
    expect(await overflow()).toBe(0);
    await tab(phone, "History").click();
    await historyRows(phone).first().waitFor();
    await phone.getByRole("button", { name: "Load older" }).click();
    await phone.getByRole("button", { name: "Load older" }).waitFor({ state: "detached" });
    expect(await overflow()).toBe(0);
    // Each entry is a compact card inside the viewport: four short lines, not one per cell.
    const box = await historyRows(phone).first().boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(390);
    expect(box?.height).toBeLessThan(140);
    await closePage(phone);
  });
});
