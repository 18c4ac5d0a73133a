// Screenshots of the dashboard's source line and the admin's Market Data Health, with both
// providers up and with one down, light and dark, 1280 and 390 px wide. Not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/health-shoot.ts [outDir]
import type { Page } from "playwright-core";
import { startComposite } from "./composite.ts";
import { ADMIN, login } from "./harness.ts";
import { eachScreen, shoot } from "./shots.ts";

const composite = await startComposite();
const { url } = composite;

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

await eachScreen(
  800,
  () => composite.stop(),
  async (page, { tag }) => {
    page.on("pageerror", (e) => console.error("pageerror:", e));
    await login(page, url, ADMIN.username, ADMIN.password);
    await sources(page, "live");
    await shoot(page, `health-dashboard-${tag}`);
    await shoot(page, `health-prices-${tag}`, { selector: ".panel--raw" });
    composite.failBroker();
    await sources(page, "down");
    await page.locator("tr[data-key='mcx:GOLD'][data-stale='true']").waitFor();
    await shoot(page, `health-prices-down-${tag}`, { selector: ".panel--raw" });
    await page.getByRole("link", { name: "Admin" }).click();
    await page.locator(".health-table tr[data-provider='broker']").waitFor();
    await shoot(page, `health-admin-down-${tag}`, { selector: ".section--health" });
    composite.resume();
    await page
      .locator(".health-table tr[data-provider='broker'] [data-col='state']", { hasText: "live" })
      .waitFor({ timeout: 20_000 });
    await shoot(page, `health-admin-${tag}`);
  },
);
