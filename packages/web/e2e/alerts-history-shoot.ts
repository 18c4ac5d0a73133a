// Screenshots of the alert form's new fields, the alert list and the History tab, at 390×844
// and 1400×900, light and dark; for eyeballing layout and themes, not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/alerts-history-shoot.ts [outDir]
import { rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { disableWithReason, historyDataDir, seedUserFirings } from "./alert-history-data.ts";
import { addAlertButton, alertsPanel, rest } from "./alerts.ts";
import { freshFixture } from "./fixtures.ts";
import { createUsers, launchBrowser, login, newPage, startApp } from "./harness.ts";
import { outDir, shoot } from "./shots.ts";

const dataDir = historyDataDir();
const app = await startApp(freshFixture({ DATA_DIR: dataDir }));
const screens = [
  { width: 1400, height: 900 },
  { width: 390, height: 844 },
].flatMap((size) =>
  (["light", "dark"] as const).map((colorScheme) => ({
    ...size,
    colorScheme,
    tag: `${size.width}-${colorScheme}`,
  })),
);
await createUsers(
  app.url,
  screens.map((s) => ({ username: `t-${s.tag}`, password: "trader-secret", alerts_enabled: true })),
);
await mkdir(outDir, { recursive: true });
const browser = await launchBrowser();
try {
  for (const screen of screens) {
    const username = `t-${screen.tag}`;
    const page = await newPage(browser, screen);
    await login(page, app.url, username, "trader-secret");
    await addAlertButton(page, "GC_BUY").waitFor();
    const ids: number[] = [];
    for (const body of [
      { commodityType: "GC_BUY", threshold: 2, metric: "zscore", hysteresis: 0.5 },
      { commodityType: "SI_SELL", threshold: 95, metric: "percentile", webhookNotify: true },
      {
        commodityType: "CL_BUY",
        threshold: 1.25,
        telegramNotify: true,
        telegramMaxNotifications: 3,
      },
    ]) {
      const { json } = await rest(page, "POST", "/api/alerts", body);
      ids.push((json.alert as { id: number }).id);
    }
    disableWithReason(dataDir, ids[2] as number, "Telegram limit 3 of 3 reached at 14:02 IST");
    const base = Date.UTC(2026, 10, 23, 8, 32, 5);
    seedUserFirings(dataDir, [
      {
        username,
        alertId: ids[0] as number,
        metric: "zscore",
        value: 2.31,
        threshold: 2,
        direction: "above",
        firedAt: base,
        outbox: [
          ["telegram", 0, "sent"],
          ["webhook", 2, "pending"],
        ],
      },
      {
        username,
        alertId: ids[2] as number,
        symbol: "CL_BUY",
        value: 1.19,
        threshold: 1.25,
        direction: "below",
        firedAt: base - 90_000,
        state: "held",
        note: "Held: MCX CRUDEOIL quote stale (no quote for 14 s)",
      },
      {
        // A position's target (docs/user-guide.md "Targets and stops on positions").
        username,
        alertId: null,
        symbol: "GC_SELL",
        metric: "net",
        value: 12_400,
        threshold: 12_000,
        direction: "above",
        firedAt: base + 30_000,
        note: "BUY 2 × GC: net ₹12,400 reached target ₹12,000",
        outbox: [
          ["telegram", 0, "sent"],
          ["webhook", 0, "sent"],
        ],
      },
      {
        username,
        alertId: null,
        symbol: "HG_SELL",
        value: -0.0412,
        threshold: -0.04,
        direction: "below",
        firedAt: base - 600_000,
        outbox: [["webhook", 5, "failed"]],
      },
      ...Array.from({ length: 20 }, (_, i) => ({
        username,
        alertId: ids[2] as number,
        symbol: "CL_BUY",
        value: 1.3 + i / 100,
        threshold: 1.25,
        direction: "above" as const,
        firedAt: base - 3_600_000 - i * 60_000,
        outbox: [["telegram", i % 3, "sent"]] as [string, number, "sent"][],
      })),
    ]);
    await page.reload();
    await page.getByRole("button", { name: "Show Alerts Section" }).click();
    await alertsPanel(page).getByRole("button", { name: "Add Alert" }).click();
    const form = page.getByRole("form", { name: "Add Alert" });
    await form.getByLabel("Metric").selectOption("zscore");
    await form.getByLabel("Webhook").check();
    // What the screen shows from the top of the alerts section down.
    const toSection = () =>
      page.evaluate(() => document.getElementById("alerts-section")?.scrollIntoView());
    await toSection();
    await shoot(page, `history-form-${screen.tag}`, { fullPage: false });
    await page.getByRole("tab", { name: "History", exact: true }).click();
    await page.getByRole("table", { name: "Alert history" }).waitFor();
    await toSection();
    await shoot(page, `history-tab-${screen.tag}`, { fullPage: false });
    await page.context().close();
  }
} finally {
  await browser.close();
  await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
