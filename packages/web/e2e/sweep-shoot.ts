// Screenshots of the Backtest panel's sweep heat maps (docs/backtest.md, "Sweeps"): 20 × 20 cells
// on the long replay, at 1400 and 390 px, light and dark, for eyeballing, not a test.
// Run: pnpm build && node --import tsx packages/web/e2e/sweep-shoot.ts [outDir]
import { longHistoryCsv, longStart } from "./chart-fixtures.ts";
import { ADMIN, login, startApp } from "./harness.ts";
import { eachScreen, shoot } from "./shots.ts";

const app = await startApp({ feed: "replay", replayCsv: longHistoryCsv(longStart()) });

await eachScreen(
  900,
  () => app.stop(),
  async (page, { tag }) => {
    await login(page, app.url, ADMIN.username, ADMIN.password);
    await page.goto(`${app.url}/advanced-chart`);
    const panel = page.getByTestId("backtest-panel");
    await panel.getByLabel("Period").selectOption("30");
    const sweep = page.getByTestId("backtest-sweep");
    // Sell above −19..0, buy back at −39..−20: 400 cells, every exit below every entry.
    for (const [name, from, to] of [
      ["x", "-19", "0"],
      ["y", "-39", "-20"],
    ] as const) {
      await sweep.getByLabel(`Sweep ${name} from`).fill(from);
      await sweep.getByLabel(`Sweep ${name} to`).fill(to);
      await sweep.getByLabel(`Sweep ${name} step`).fill("1");
    }
    await sweep.getByRole("button", { name: "Run sweep" }).click();
    await sweep.locator(".sweep__map").nth(1).locator("tbody tr").nth(19).waitFor();
    await sweep.scrollIntoViewIfNeeded();
    await shoot(page, `sweep-${tag}`, { selector: "[data-testid='backtest-sweep']" });
  },
  { widths: [1400, 390] },
);
