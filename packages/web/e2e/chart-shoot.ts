// Screenshots of the Advanced Spread Chart for eyeballing: line and candles, light and dark,
// 1280 and 390 px wide, hovering a candle. Not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/chart-shoot.ts [outDir]
import { chartFixtureCsv, fixtureStart } from "./chart-fixtures.ts";
import { ADMIN, login, startApp } from "./harness.ts";
import { eachScreen, shoot } from "./shots.ts";

// SHOOT_FEED=simulator shows 30 days of backfilled history instead of the six-minute fixture.
const simulator = process.env.SHOOT_FEED === "simulator";

const app = await startApp(
  simulator
    ? { feed: "simulator" }
    : { feed: "replay", replayCsv: chartFixtureCsv(fixtureStart()) },
);
await eachScreen(
  860,
  () => app.stop(),
  async (page, { tag }) => {
    page.on("pageerror", (e) => console.error("pageerror:", e));
    await login(page, app.url, ADMIN.username, ADMIN.password);
    await page.getByRole("link", { name: "Advanced Charts" }).click();
    const timeframe = page.getByLabel("Timeframe");
    await timeframe.selectOption(simulator ? "1h" : "1m");
    for (const kind of ["Line", "Candles"]) {
      await page.getByRole("button", { name: kind, exact: true }).click();
      await page.waitForFunction(() => document.querySelector(".chart__overlay") === null);
      await page.waitForTimeout(400);
      const plot = page.locator(".u-over");
      const box = await plot.boundingBox();
      if (box) await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.4);
      await shoot(page, `chart-${kind.toLowerCase()}-${tag}`);
    }
    if (!simulator) {
      // The fixture has no index prices.
      await page.getByLabel("Commodity").selectOption("NIFTY");
      await page.getByText("No chart data available for this selection").waitFor();
      await shoot(page, `chart-empty-${tag}`);
    }
  },
);
