// Screenshots of the accessibility fixes (focus ring, z details, disabled and greyed rows, the
// chart's labels and its keyboard price level) for eyeballing, not a test.
// Run: pnpm build && node --import tsx packages/web/e2e/a11y-shoot.ts [outDir]
import { a11yReplayCsv, seedAlerts } from "./a11y-fixture.ts";
import { createUsers, login, startApp } from "./harness.ts";
import { eachScreen, outDir as out } from "./shots.ts";

const TRADER = { username: "trader", password: "trader-secret", alerts_enabled: true };
const app = await startApp({ feed: "replay", replayCsv: a11yReplayCsv() });
await createUsers(app.url, [TRADER]);
let seeded = false;

await eachScreen(
  900,
  () => app.stop(),
  async (page, { width, tag }) => {
    const phone = width < 500;
    await login(page, app.url, TRADER.username, TRADER.password);
    if (!seeded) {
      await seedAlerts(page);
      seeded = true;
      await page.reload();
    }
    const row = page.locator("tr[data-symbol='GC_BUY']");
    await row.locator("button.bell").first().waitFor();
    if (phone) {
      await row.getByRole("button", { name: "GC_BUY" }).click();
      await page.locator("dialog.sheet [data-field='z']").waitFor();
      await page.screenshot({ path: `${out}/a11y-sheet-${tag}.png` });
      await page.keyboard.press("Escape");
    } else {
      // Tab to the z figure: its tooltip and the focus ring in one picture.
      await row.locator("[data-col='net-per-lot'] button").focus();
      await page.keyboard.press("Tab");
      await page.getByRole("tooltip").waitFor();
      await page.screenshot({ path: `${out}/a11y-z-${tag}.png` });
    }
    await page.getByRole("button", { name: "Show Alerts Section" }).focus();
    await page.keyboard.press("Enter");
    await page.locator(".alert-item[data-enabled='false']").waitFor();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await page.screenshot({ path: `${out}/a11y-dashboard-${tag}.png`, fullPage: true });
    await page.goto(`${app.url}/advanced-chart`);
    await page.getByLabel("Timeframe").selectOption("1m");
    await page.getByLabel("Chart type").getByText("Candles").click();
    await page.waitForFunction(() => (window.__spreadChart?.data[0].length ?? 0) > 30);
    await page.locator(".chart-threshold").first().waitFor();
    await page.getByRole("button", { name: "Reset Zoom" }).focus();
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(() => document.activeElement?.classList.contains("u-over"))) break;
    }
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: /^Create alert at / }).waitFor();
    await page.screenshot({ path: `${out}/a11y-chart-${tag}.png` });
    console.log(tag);
  },
  { widths: [1400, 390] },
);
