// Screenshots of the dashboard's layout with toasts showing, live and with every row stale (the
// server halted), at 1400 × 900 and 390 × 844 (touch), light and dark, for eyeballing the
// layout invariants of e2e/layout.test.ts; not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/layout-shoot.ts [outDir]
import { mkdir } from "node:fs/promises";
import { addAlertButton, popup, spreadRow } from "./alerts.ts";
import { createUsers, launchBrowser, login, newPage, startApp } from "./harness.ts";
import { alertsAtTheSpread, everyRowStale } from "./layout.ts";
import { deskUsers, outDir, shoot } from "./shots.ts";

const WAIT = { timeout: 60_000 };
const SCREENS = [
  { width: 1400, height: 900 },
  { width: 390, height: 844 },
] as const;

const app = await startApp({ feed: "simulator" });
await createUsers(app.url, deskUsers(SCREENS));
await mkdir(outDir, { recursive: true });
const browser = await launchBrowser();
const viewport = { fullPage: false };
try {
  for (const { width, height } of SCREENS) {
    for (const colorScheme of ["light", "dark"] as const) {
      const tag = `${width}-${colorScheme}`;
      const page = await newPage(browser, { width, height, colorScheme, hasTouch: width < 600 });
      await login(page, app.url, `desk-${colorScheme}-${width}`, "desk-secret");
      await addAlertButton(page, "GC_BUY").waitFor(WAIT);
      await alertsAtTheSpread(page);
      await page.reload();
      await popup(page).locator("[data-notification]").first().waitFor(WAIT);
      await shoot(page, `layout-live-${tag}`, viewport);
      if (width > 600) {
        await spreadRow(page, "HG_SELL").locator("[data-alert-more]").click();
        await page.locator("dialog.sheet").waitFor();
        // Past the sheet's rise, so the picture shows it at rest.
        await page.waitForTimeout(400);
        await shoot(page, `layout-more-${tag}`, viewport);
        await page.getByRole("button", { name: "Close details" }).click();
      }
      await app.halt();
      await everyRowStale(page);
      await shoot(page, `layout-stale-${tag}`, viewport);
      if (width < 600) {
        await page.locator(".page--dashboard").evaluate((page) => page.scrollTo(0, 300));
        await shoot(page, `layout-stale-scrolled-${tag}`, viewport);
      }
      await app.restart();
      await page.context().close();
    }
  }
} finally {
  await browser.close();
  await app.stop();
}
