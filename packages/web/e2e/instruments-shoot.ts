// Screenshots of issue 20's screens on the simulator: the Prices table grouped by exchange with
// contracts (folded and unfolded on a phone), Admin → Instruments, and the chart's roll marks;
// 1400 and 390 px wide, light and dark. Not a test.
// Run: pnpm build && node --import tsx packages/web/e2e/instruments-shoot.ts [outDir]
import { rmSync } from "node:fs";
import { historyDataDir } from "./alert-history-data.ts";
import { rest } from "./alerts.ts";
import { ADMIN, login, startApp } from "./harness.ts";
import { seedRolls } from "./roll-data.ts";
import { eachScreen, shoot } from "./shots.ts";

const dataDir = historyDataDir();
const app = await startApp({ feed: "simulator", env: { DATA_DIR: dataDir } });
const DAY = 86_400_000;
const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
// Rolls inside the simulator's 30-day backfill, so the default 1h chart shows their marks.
seedRolls(dataDir, [
  { key: "GOLD", at: hour - 3 * DAY, from: "GOLD26FEBFUT", to: "GOLD26APRFUT" },
  { key: "GC", at: hour - 5 * DAY, from: "GCG26", to: "GCJ26" },
]);
let added = false;

await eachScreen(
  900,
  async () => {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  },
  async (page, { tag, width }) => {
    page.on("pageerror", (e) => console.error("pageerror:", e));
    page.on("dialog", (dialog) => void dialog.accept());
    await login(page, app.url, ADMIN.username, ADMIN.password);
    if (!added) {
      for (const key of ["ZINC", "GOLD@next", "BZ", "GOLDM"]) {
        const answer = await rest(page, "POST", "/api/instruments", { key });
        console.log(`add ${key}: ${answer.status}`);
      }
      added = true;
    }
    const prices = page.locator(".panel--raw");
    await page.locator("tr[data-key='cme:GC'] [data-col='bid']").waitFor({ state: "attached" });
    await page
      .waitForFunction(
        () => document.querySelectorAll("table[aria-label='Prices'] tr[data-key]").length > 15,
        undefined,
        { timeout: 20_000 },
      )
      .catch(() => console.log("no extra instruments quoted"));
    await shoot(page, `instruments-prices-${tag}`, { selector: ".panel--raw" });
    if (width < 600) {
      await page.getByRole("button", { name: /^MCX/ }).click();
      await shoot(page, `instruments-prices-mcx-open-${tag}`, { selector: ".panel--raw" });
    }
    await prices.waitFor();
    await page.goto(`${app.url}/admin/instruments`);
    await page.locator("tr[data-instrument='GOLD']").waitFor();
    await shoot(page, `instruments-admin-${tag}`);
    await page.goto(`${app.url}/advanced-chart`);
    await page.locator("[data-chart-status='ok']").waitFor({ timeout: 30_000 });
    await page.locator(".chart-roll").first().waitFor({ state: "attached" });
    await shoot(page, `instruments-chart-${tag}`, { fullPage: false });
    await page.getByRole("button", { name: "Back-adjusted" }).click();
    await shoot(page, `instruments-chart-adjusted-${tag}`, { fullPage: false });
  },
  { widths: [1400, 390], touchWhenNarrow: true },
);
