// Screenshots of docs/user-guide.md "Spreads of your own": My spreads on the dashboard, the builder
// (a template, a formula error), a definition's sheet on phones and its chart; for eyeballing, not
// a test. Run: pnpm build && node --import tsx packages/web/e2e/spreads-shoot.ts [outDir]
import { rest } from "./alerts.ts";
import { ADMIN, login, startApp } from "./harness.ts";
import { eachScreen, outDir as out } from "./shots.ts";

const app = await startApp({ feed: "simulator" });
let created = false;

await eachScreen(
  900,
  () => app.stop(),
  async (page, { width, tag }) => {
    await login(page, app.url, ADMIN.username, ADMIN.password);
    await page.mouse.move(width - 5, 5);
    if (!created) {
      created = true;
      await rest(page, "POST", "/api/spreads", {
        name: "GOLD near/next calendar",
        legs: [
          { name: "a", instrument: "GOLD", lots: 1 },
          { name: "b", instrument: "GOLD@next", lots: 1 },
        ],
        formula: "a - b",
      });
      await rest(page, "POST", "/api/spreads", {
        name: "Gold/Silver",
        legs: [
          { name: "g", instrument: "GOLD", lots: 1 },
          { name: "s", instrument: "SILVER", lots: 1 },
        ],
        formula: "g / s",
        shared: true,
      });
      await page.reload();
    }
    const panel = page.locator("section.panel--my-spreads");
    await panel.locator("tr[data-symbol$='_BUY'] [data-col='spread']").first().waitFor();
    await page.waitForTimeout(1500); // a screenshot script: let the values arrive
    await panel.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: `${out}/my-spreads-${tag}.png` });
    if (width < 500) {
      await panel.locator("tr[data-symbol$='_BUY'] .symbol__details").first().tap();
      await page.locator("dialog.sheet").waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${out}/my-spreads-sheet-${tag}.png` });
      await page.keyboard.press("Escape");
      await page.locator("dialog.sheet").waitFor({ state: "detached" });
    }
    await panel.getByRole("button", { name: "New spread" }).click();
    const dialog = page.locator("dialog.spread-builder");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Fill in legs and formula" }).click();
    await page.screenshot({ path: `${out}/builder-template-${tag}.png` });
    await dialog.getByLabel("Formula").fill("a - b.constructor");
    await dialog.getByRole("button", { name: "Create spread" }).click();
    await dialog.locator("[data-field='formula-error']").waitFor();
    await page.screenshot({ path: `${out}/builder-error-${tag}.png` });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    // The ratio: its legs were quoted before it existed, so its chart starts from their closes.
    const symbol = await panel.locator("tbody[data-spread]").last().getAttribute("data-spread");
    await page.goto(`${app.url}/advanced-chart`);
    await page.evaluate((s) => history.replaceState({ commodity: `${s}_BUY` }, ""), symbol);
    await page.reload();
    // Until the chart data takes definitions, there is no chart to show: the shot says so.
    await page
      .locator("[data-chart-status='ok'], [data-chart-status='error']")
      .waitFor({ timeout: 30_000 });
    await page.waitForTimeout(800);
    await page.screenshot({ path: `${out}/chart-definition-${tag}.png` });
  },
  { widths: [1400, 390], touchWhenNarrow: true },
);
