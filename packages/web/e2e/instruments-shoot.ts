// Screenshots of issue 20's screens on the simulator: the Prices table grouped by exchange with
// contracts (folded and unfolded on a phone), Admin → Instruments, and the chart's roll marks;
// 1400 and 390 px wide, light and dark. Not a test.
// Run: pnpm build && node --import tsx packages/web/e2e/instruments-shoot.ts [outDir]
import { rest } from "./alerts.ts";
import { ADMIN, login, startApp } from "./harness.ts";
import { eachScreen, shoot } from "./shots.ts";

const app = await startApp({ feed: "simulator" });
let added = false;

await eachScreen(
  900,
  () => app.stop(),
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
    await page.getByRole("heading", { name: "Instruments in use" }).waitFor();
    await shoot(page, `instruments-admin-${tag}`);
    await page.goto(`${app.url}/advanced-chart`);
    await page.locator("[data-chart-status='ok']").waitFor({ timeout: 30_000 });
    await shoot(page, `instruments-chart-${tag}`, { fullPage: false });
  },
  { widths: [1400, 390], touchWhenNarrow: true },
);
