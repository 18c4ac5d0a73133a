// Screenshots of docs/user-guide.md "Positions (paper)": the open form, the Positions screen (table
// on a desktop, cards on a phone), the costs breakdown and the close result; for eyeballing, not a
// test. Run: pnpm build && node --import tsx packages/web/e2e/positions-shoot.ts [outDir]
import { rest } from "./alerts.ts";
import { ADMIN, login, startApp } from "./harness.ts";
import { closeDialog, openDialog, openPositions } from "./positions.ts";
import { eachScreen, outDir as out } from "./shots.ts";

const app = await startApp({ feed: "simulator" });
let created = false;

await eachScreen(
  900,
  () => app.stop(),
  async (page, { width, tag }) => {
    await login(page, app.url, ADMIN.username, ADMIN.password);
    await page.mouse.move(width - 5, 5);
    await page.locator("tr[data-symbol='GC_BUY'] [data-col='spread']").waitFor();
    await page.waitForTimeout(1500); // a screenshot script: let the values arrive
    if (!created) {
      created = true;
      for (const body of [
        {
          spread: "GC",
          side: "BUY",
          lots: 2,
          note: "parity stretched after CPI",
          targetInr: 20000,
          stopInr: -8000,
        },
        { spread: "SI", side: "SELL", lots: 1 },
        { spread: "CL", side: "BUY", lots: 3 },
      ]) {
        const { status, json } = await rest(page, "POST", "/api/positions", body);
        if (status !== 201)
          throw new Error(`POST /api/positions: ${status} ${JSON.stringify(json)}`);
      }
      const { json } = await rest(page, "GET", "/api/positions");
      const cl = (json.positions as { id: number; spread: string }[]).find(
        (p) => p.spread === "CL",
      );
      await rest(page, "POST", `/api/positions/${cl?.id}/close`, { lots: 1 });
    }
    if (width < 500) {
      await page.locator("tr[data-symbol='GC_BUY'] .symbol__details").tap();
    } else {
      await page.goto(`${app.url}/advanced-chart`);
    }
    await page.getByRole("button", { name: "Open position" }).first().click();
    await openDialog(page).waitFor();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${out}/position-open-${tag}.png` });
    await page.keyboard.press("Escape");
    await page.goto(`${app.url}/positions`);
    await openPositions(page).locator("[data-position]").first().waitFor();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `${out}/positions-${tag}.png`, fullPage: true });
    const costs = openPositions(page).locator("[data-field='costs'] button").first();
    await costs.focus();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${out}/positions-costs-${tag}.png` });
    await openPositions(page).getByRole("button", { name: "Close" }).first().click();
    await closeDialog(page)
      .getByLabel(/Lots to close/)
      .fill("1");
    await page.screenshot({ path: `${out}/position-close-${tag}.png` });
    await page.keyboard.press("Escape");
  },
  { widths: [1400, 390], touchWhenNarrow: true },
);
