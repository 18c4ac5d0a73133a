import { rmSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { a11yReplayCsv, seedAlerts, seedHistory } from "./a11y-fixture.ts";
import { historyDataDir } from "./alert-history-data.ts";
import { addAlertButton, alertsPanel, modal, rest, spreadRow } from "./alerts.ts";
import { expectAccessible, expectAccessibleMidFlash, inDarkTheme } from "./axe.ts";
import { login, signIn, startApp } from "./harness.ts";
import { seedRolls } from "./roll-data.ts";
import { closePage, openPage } from "./spare-page.ts";
import { signedOutSuite } from "./suite.ts";

/**
 * axe-core on every screen, dialog and sheet, at 1400 px (desktop) and 390 px (phone), light
 * and dark: no serious or critical violation (contrast, names, roles, labels). One server and
 * one browser for the file; a page per size, each screen checked in the light theme with every
 * rule, then in the dark one, as the Profile switch sets it, with the colour rules (its markup is
 * the light one's): the same state in the other colours, without making it again on a page of
 * its own (half the file's page loads, sign-ins and clicks).
 *
 * The two sizes run side by side, each its screens in order on its own page. Each signs in as
 * its own trader (one session per user: a second sign-in of the same user would end the
 * first's), with the same alerts and History.
 */
const SCREENS = [
  { width: 1400, height: 900 },
  { width: 390, height: 844 },
] as const;
const traderOf = ({ width }: { width: number }) => ({
  username: `trader${width}`,
  password: "trader-secret",
  is_admin: true,
  alerts_enabled: true,
});
const TRADERS = SCREENS.map(traderOf);
/** A safety net for a test whose axe runs share the machine with three others, not a speed. */
const TEST_TIMEOUT_MS = 240_000;
const dataDir = historyDataDir();

const suite = signedOutSuite({
  app: () => startApp({ feed: "replay", replayCsv: a11yReplayCsv(), env: { DATA_DIR: dataDir } }),
  users: TRADERS,
  page: false,
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

beforeAll(async () => {
  // Inside the forty minutes of history, so the chart draws a roll mark and its label.
  const at = Math.floor((Date.now() - 80 * 60_000) / 60_000) * 60_000;
  seedRolls(dataDir, [{ key: "GOLD", at, from: "GOLD26FEBFUT", to: "GOLD26APRFUT" }]);
  for (const trader of TRADERS) {
    const page = await openPage(suite.browser);
    await signIn(page, suite.app.url, trader.username, trader.password);
    const { enabled } = await seedAlerts(page);
    seedHistory(dataDir, trader.username, enabled);
    await closePage(page);
  }
});

async function openSection(page: Page): Promise<void> {
  const toggle = page.getByRole("button", { name: /Show Alerts Section|Hide Alerts Section/ });
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await page.getByRole("tablist", { name: "Alerts section" }).waitFor();
}

/** The alerts section's History tab, once its first row is in. */
async function openHistory(page: Page): Promise<void> {
  await page.getByRole("tab", { name: "History", exact: true }).click();
  await page.getByRole("table", { name: "Alert history" }).locator("tbody tr").first().waitFor();
}

for (const screen of SCREENS) {
  const { width, height } = screen;
  const TRADER = traderOf(screen);
  describe.concurrent(`at ${width} px, light and dark`, { timeout: TEST_TIMEOUT_MS }, () => {
    const phone = width < 480;
    let page: Page;
    beforeAll(async () => {
      // The flash's tints are part of what is checked (expectAccessibleMidFlash): motion on.
      page = await openPage(suite.browser, {
        width,
        height,
        reducedMotion: "no-preference",
      });
    });
    afterAll(async () => {
      await closePage(page);
    });
    const where = (screen: string, theme: string) => `${screen} (${width} px, ${theme})`;
    // The dark theme changes colours, not markup: every rule in the light one, the colour rules
    // in the dark one (axe.ts, coloursOnly).
    const check = async (screen: string) => {
      await expectAccessible(page, where(screen, "light"));
      await inDarkTheme(page, () =>
        expectAccessible(page, where(screen, "dark"), { coloursOnly: true }),
      );
    };
    const checkMidFlash = async (screen: string) => {
      await expectAccessibleMidFlash(page, where(screen, "light"));
      await inDarkTheme(page, () => expectAccessibleMidFlash(page, where(screen, "dark")));
    };

    it.sequential("the login screen", async () => {
      await page.goto(`${suite.app.url}/login`);
      await page.getByRole("button", { name: "Login" }).waitFor();
      await check("login");
    });

    it.sequential("the dashboard, with alert bells and the z column", async () => {
      await login(page, suite.app.url, TRADER.username, TRADER.password);
      // A phone's row has one bell with the count; a desktop's a bell per alert.
      const bell = phone ? "button[data-alert-count='2']" : "button.bell[data-alert-id]";
      await spreadRow(page, "GC_BUY").locator(bell).first().waitFor();
      if (!phone) await page.locator("tr[data-symbol='GC_BUY'] [data-col='z'][data-z]").waitFor();
      await check("dashboard");
    });

    it.sequential("the alerts section", async () => {
      await openSection(page);
      await alertsPanel(page).locator(".alert-item[data-enabled='false']").waitFor();
      await check("alerts section");
    });

    it.sequential("the History tab", async () => {
      await openHistory(page);
      await check("History");
      await page.getByRole("tab", { name: "Alerts", exact: true }).click();
    });

    it.sequential("the alert modal", async () => {
      await addAlertButton(page, "SI_BUY").click();
      await modal(page).waitFor();
      await check("alert modal");
      await page.keyboard.press("Escape");
      await modal(page).waitFor({ state: "detached" });
    });

    it.sequential(phone ? "the row's details sheet" : "the z and per-lot breakdowns", async () => {
      if (phone) {
        await spreadRow(page, "GC_BUY").getByRole("button", { name: "GC_BUY" }).click();
        const sheet = page.getByRole("dialog", { name: /GC_BUY/ });
        await sheet.waitFor();
        await check("details sheet");
        await page.keyboard.press("Escape");
        await sheet.waitFor({ state: "detached" });
        return;
      }
      await spreadRow(page, "GC_BUY").locator("[data-col='net-per-lot'] button").focus();
      await page.getByRole("tooltip").waitFor();
      await check("per-lot breakdown");
      await spreadRow(page, "GC_BUY").locator("[data-col='z'] button").focus();
      await page
        .getByRole("tooltip")
        .getByText(/percentile/)
        .waitFor();
      await check("z breakdown");
    });

    // A moving price flashes its cell for 1.5 s (docs/spec.md §4): the dashboard, the alerts
    // section and History again, every spread cell held mid-flash on either tint.
    it.sequential("the dashboard, the alerts section and History while cells flash", async () => {
      await page.goto(`${suite.app.url}/`);
      await spreadRow(page, "GC_BUY").locator("[data-col='spread']").waitFor();
      if (phone) await spreadRow(page, "GC_BUY").locator(".z-chip").waitFor();
      await checkMidFlash("dashboard");
      await openSection(page);
      await alertsPanel(page).locator(".alert-item[data-enabled='false']").waitFor();
      await checkMidFlash("alerts section");
      await openHistory(page);
      await checkMidFlash("History");
      await page.getByRole("tab", { name: "Alerts", exact: true }).click();
    });

    it.sequential("the Positions screen, its open and close forms", async () => {
      await page.goto(`${suite.app.url}/positions`);
      await page.getByRole("button", { name: "Open position" }).click();
      const form = page.locator("dialog[data-dialog='open-position']");
      await form.waitFor();
      await check("open-position form");
      await form.getByLabel("A spread value I type").check();
      await form.getByLabel("Entry value", { exact: true }).fill("100");
      await form.getByRole("button", { name: "Open position" }).click();
      await form.getByRole("button", { name: "Done" }).click();
      await form.waitFor({ state: "detached" });
      const position = page.locator("section.panel--positions [data-position]").first();
      await position.waitFor();
      // A target and a stop, so the button that edits them names what it shows.
      const id = Number(await position.getAttribute("data-position"));
      const patched = await rest(page, "PATCH", `/api/positions/${id}`, {
        targetInr: 50_000,
        stopInr: -40_000,
      });
      if (patched.status !== 200) throw new Error(`PATCH /api/positions/${id}: ${patched.status}`);
      await position.locator("[data-field='target-stop']").getByText(/stop/).first().waitFor();
      await check("Positions");
      await position.getByRole("button", { name: "Close" }).click();
      const close = page.locator("dialog[data-dialog='close-position']");
      await close.waitFor();
      await check("close-position form");
      await page.keyboard.press("Escape");
      await close.waitFor({ state: "detached" });
    });

    it.sequential("the Profile page", async () => {
      await page.goto(`${suite.app.url}/profile`);
      await page.getByRole("button", { name: "Update Password" }).waitFor();
      await check("Profile");
    });

    it.sequential("the Admin page", async () => {
      await page.goto(`${suite.app.url}/admin`);
      await page.getByRole("table").first().locator("tbody tr").first().waitFor();
      await check("Admin");
    });

    it.sequential("Admin → Instruments, and its custom form with the server's refusal", async () => {
      await page.goto(`${suite.app.url}/admin/instruments`);
      await page.locator("tr[data-instrument='GOLD']").waitFor();
      await check("Instruments");
      await page.getByRole("button", { name: "Custom" }).click();
      await page.getByRole("button", { name: "Add Instrument" }).click();
      await page.getByRole("form", { name: "Add Instrument" }).getByRole("alert").waitFor();
      await check("Instruments' custom form with an error");
    });

    it.sequential("the chart, its alert lines, its Create alert offer and the modal it opens", async () => {
      await page.goto(`${suite.app.url}/advanced-chart`);
      await page.getByLabel("Timeframe").selectOption("1m");
      await page.waitForFunction(() => (window.__spreadChart?.data[0].length ?? 0) > 30);
      await page.locator(".chart-threshold--disabled").waitFor();
      await page.locator(".chart-roll[data-roll-key='GOLD']").waitFor();
      await check("chart");
      const plot = await page.locator(".u-over").boundingBox();
      if (!plot) throw new Error("no plot");
      await page.mouse.click(plot.x + plot.width / 2, plot.y + plot.height / 3);
      const offer = page.getByRole("button", { name: /^Create alert at / });
      await offer.waitFor();
      await check("chart's Create alert offer");
      await offer.click();
      await modal(page).waitFor();
      await check("chart's alert modal");
      await page.keyboard.press("Escape");
      await modal(page).waitFor({ state: "detached" });
    });
  });
}
