// Screenshots of the dashboard's source line and the admin's Market Data Health, with both
// providers up and with one down, light and dark, 1280 and 390 px wide. Not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/health-shoot.ts [outDir]
import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { startComposite } from "./composite.ts";
import { ADMIN, launchBrowser, login, newPage } from "./harness.ts";

const outDir = process.argv[2] ?? "/tmp/shots";
await mkdir(outDir, { recursive: true });
const composite = await startComposite();
const { url } = composite.app;

async function sources(page: Page, broker: string): Promise<void> {
  await page.waitForFunction(
    (state) =>
      document
        .querySelector(".source-line [data-provider='broker']")
        ?.getAttribute("data-state") === state,
    broker,
    { timeout: 20_000 },
  );
}

async function shoot(page: Page, name: string, selector?: string): Promise<void> {
  const file = `${outDir}/${name}.png`;
  if (selector) await page.locator(selector).screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: true });
  console.log(file);
}

const browser = await launchBrowser();
try {
  for (const width of [1280, 390]) {
    for (const colorScheme of ["light", "dark"] as const) {
      const tag = `${width}-${colorScheme}`;
      const page = await newPage(browser, { width, height: width > 600 ? 800 : 844, colorScheme });
      page.on("pageerror", (e) => console.error("pageerror:", e));
      await login(page, url, ADMIN.username, ADMIN.password);
      await sources(page, "live");
      await shoot(page, `health-dashboard-${tag}`);
      await shoot(page, `health-prices-${tag}`, ".panel--raw");
      composite.failBroker();
      await sources(page, "down");
      await page.locator("tr[data-key='mcx:GOLD'][data-stale='true']").waitFor();
      await shoot(page, `health-prices-down-${tag}`, ".panel--raw");
      await page.getByRole("link", { name: "Admin" }).click();
      await page.locator(".health-table tr[data-provider='broker']").waitFor();
      await shoot(page, `health-admin-down-${tag}`, ".section--health");
      composite.resume();
      await page
        .locator(".health-table tr[data-provider='broker'] [data-col='state']", { hasText: "live" })
        .waitFor({ timeout: 20_000 });
      await shoot(page, `health-admin-${tag}`);
      await page.context().close();
    }
  }
} finally {
  await browser.close();
  await composite.stop();
}
