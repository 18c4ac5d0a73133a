// Screenshots of issue 12's trader columns, breakdown, lot size and chart bands on the
// simulator (30-day backfill, so z and bands have history); for eyeballing, not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/trader-shoot.ts [outDir]
import { ADMIN, launchBrowser, login, newPage, startApp } from "./harness.ts";

const out = process.argv[2] ?? "/tmp/shots-trader";
const app = await startApp({ feed: "simulator" });
const browser = await launchBrowser();
try {
  for (const [width, height] of [
    [1400, 900],
    [390, 844],
  ] as const) {
    for (const colorScheme of ["light", "dark"] as const) {
      const tag = `${width}x${height}-${colorScheme}`;
      const page = await newPage(browser, { width, height, colorScheme, hasTouch: width < 500 });
      await login(page, app.url, ADMIN.username, ADMIN.password);
      // Off the table: the login click leaves the pointer where a cell appears.
      await page.mouse.move(width - 5, height - 5);
      await page.locator("[data-symbol='GC_BUY'] [data-col='z'][data-z]").waitFor();
      await page.screenshot({ path: `${out}/dashboard-${tag}.png` });
      const button = page.locator("[data-symbol='GC_BUY'] [data-col='net-per-lot'] button");
      await button.scrollIntoViewIfNeeded();
      if (width < 500) await button.tap();
      else await button.hover();
      await page.getByRole("tooltip").waitFor();
      await page.screenshot({ path: `${out}/breakdown-${tag}.png` });
      await page.getByRole("link", { name: "Profile" }).click();
      await page.getByLabel("Gold", { exact: true }).waitFor();
      await page.screenshot({ path: `${out}/profile-${tag}.png`, fullPage: true });
      await page.getByRole("link", { name: "Back to Dashboard" }).click();
      await page.getByRole("link", { name: "Advanced Charts" }).click();
      const toggle = page.getByRole("button", { name: "±σ Bands" });
      await toggle.waitFor();
      if ((await toggle.getAttribute("aria-pressed")) !== "true") await toggle.click();
      await page.waitForTimeout(500); // a screenshot script, not a test: let the canvas settle
      await page.screenshot({ path: `${out}/chart-bands-${tag}.png` });
      await page.context().close();
    }
  }
} finally {
  await browser.close();
  await app.stop();
}
