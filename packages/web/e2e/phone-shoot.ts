// Screenshots of the phone-first dashboard (docs/user-guide.md, "The dashboard") and every screen
// at 390 × 844 and 360 × 780 (touch) and 1400 × 900, light and dark, for eyeballing; not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/phone-shoot.ts [outDir]
import { mkdir } from "node:fs/promises";
import { addAlertButton, modal, popup, rest, spreadRow } from "./alerts.ts";
import { goldSwingCsv } from "./fixtures.ts";
import { createUsers, launchBrowser, login, newPage, startApp } from "./harness.ts";
import { deskUsers, outDir, shoot } from "./shots.ts";

const app = await startApp({
  feed: "replay",
  replayCsv: goldSwingCsv(Date.now() + 5_000, 2_000),
  replaySpeed: 1,
});
const SCREENS = [
  { width: 390, height: 844 },
  { width: 360, height: 780 },
  { width: 1400, height: 900 },
] as const;
await createUsers(app.url, deskUsers(SCREENS));
await mkdir(outDir, { recursive: true });
const browser = await launchBrowser();
const viewport = { fullPage: false };
try {
  for (const { width, height } of SCREENS) {
    for (const colorScheme of ["light", "dark"] as const) {
      const tag = `${width}-${colorScheme}`;
      const phone = width < 600;
      const page = await newPage(browser, { width, height, colorScheme, hasTouch: phone });
      page.on("dialog", (dialog) => void dialog.accept());
      await page.goto(`${app.url}/login`);
      await page.getByRole("button", { name: "Login" }).waitFor();
      await shoot(page, `phone-login-${tag}`, viewport);
      await login(page, app.url, `desk-${colorScheme}-${width}`, "desk-secret");
      await addAlertButton(page, "SI_BUY").waitFor();
      await shoot(page, `phone-dashboard-${tag}`, viewport);
      for (const threshold of [100, 101, 102, 103, 104]) {
        await rest(page, "POST", "/api/alerts", { commodityType: "GC_BUY", threshold });
      }
      await rest(page, "POST", "/api/alerts", { commodityType: "SI_SELL", threshold: -300 });
      await page.reload();
      await popup(page).getByRole("button", { name: /more/ }).waitFor({ timeout: 30_000 });
      await shoot(page, `phone-dashboard-toasts-${tag}`, viewport);
      if (phone) {
        await spreadRow(page, "GC_BUY").locator("[data-col='spread']").tap();
        await page.locator("dialog.sheet").waitFor();
        // Past the sheet's rise, so the picture shows it at rest.
        await page.waitForTimeout(400);
        await shoot(page, `phone-sheet-${tag}`, viewport);
        await page.getByRole("button", { name: "Close details" }).tap();
      }
      await addAlertButton(page, "SI_BUY").click();
      await modal(page).waitFor();
      await shoot(page, `phone-modal-toasts-${tag}`, viewport);
      await modal(page).getByRole("button", { name: "Cancel" }).click();
      await popup(page).getByRole("button", { name: /more/ }).click();
      await shoot(page, `phone-toasts-expanded-${tag}`, viewport);
      await page.goto(`${app.url}/admin`);
      await page.locator("tr[data-username]").first().waitFor();
      await shoot(page, `phone-admin-${tag}`);
      await page.goto(`${app.url}/profile`);
      await page.getByRole("button", { name: "Update Password" }).waitFor();
      await shoot(page, `phone-profile-${tag}`);
      await page.goto(`${app.url}/advanced-chart`);
      await page.waitForTimeout(1500);
      await shoot(page, `phone-chart-${tag}`, viewport);
      await page.context().close();
    }
  }
} finally {
  await browser.close();
  await app.stop();
}
