// Screenshots of the trader columns (docs/user-guide.md, "Net / lot (₹) and z"), breakdown, lot
// size and chart bands on the simulator (30-day backfill, so z and bands have history); for
// eyeballing, not a test. Run: pnpm --filter @spreadwatch/web build && node --import tsx
// packages/web/e2e/trader-shoot.ts [outDir]
import { ADMIN, login, startApp } from "./harness.ts";
import { eachScreen, outDir as out } from "./shots.ts";

const app = await startApp({ feed: "simulator" });

await eachScreen(
  900,
  () => app.stop(),
  async (page, { width, tag }) => {
    const height = width > 600 ? 900 : 844;
    await login(page, app.url, ADMIN.username, ADMIN.password);
    // Off the table: the login click leaves the pointer where a cell appears.
    await page.mouse.move(width - 5, height - 5);
    const row = page.locator("tr[data-symbol='GC_BUY']");
    if (width < 500) {
      // A phone has no z or Net / lot column: both are in the row's sheet.
      await row.locator("[data-col='spread']").waitFor();
      await page.screenshot({ path: `${out}/dashboard-${tag}.png` });
      await row.locator("[data-col='spread']").tap();
      await page.locator("dialog.sheet").waitFor();
      await page.screenshot({ path: `${out}/breakdown-${tag}.png` });
      await page.keyboard.press("Escape");
      await page.locator("dialog.sheet").waitFor({ state: "detached" });
    } else {
      await row.locator("[data-col='z'][data-z]").waitFor();
      await page.screenshot({ path: `${out}/dashboard-${tag}.png` });
      await row.locator("[data-col='net-per-lot'] button").hover();
      await page.getByRole("tooltip").waitFor();
      await page.screenshot({ path: `${out}/breakdown-${tag}.png` });
    }
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
  },
  { widths: [1400, 390], touchWhenNarrow: true },
);
