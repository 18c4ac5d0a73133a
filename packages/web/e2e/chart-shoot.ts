// Screenshots of the Advanced Spread Chart for eyeballing: line and candles, light and dark,
// 1280 and 390 px wide, hovering a candle. Not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/chart-shoot.ts [outDir]
import { mkdir } from "node:fs/promises";
import { chartFixtureCsv, fixtureStart } from "./chart-fixtures.ts";
import { ADMIN, launchBrowser, login, newPage, startApp } from "./harness.ts";

const outDir = process.argv[2] ?? "/tmp/shots";
// SHOOT_FEED=simulator shows 30 days of backfilled history instead of the six-minute fixture.
const simulator = process.env.SHOOT_FEED === "simulator";

await mkdir(outDir, { recursive: true });
const app = await startApp(
  simulator
    ? { feed: "simulator" }
    : { feed: "replay", replayCsv: chartFixtureCsv(fixtureStart()) },
);
const browser = await launchBrowser();
try {
  for (const width of [1280, 390]) {
    for (const colorScheme of ["light", "dark"] as const) {
      const page = await newPage(browser, { width, height: width > 600 ? 860 : 844, colorScheme });
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
        const file = `${outDir}/chart-${kind.toLowerCase()}-${width}-${colorScheme}.png`;
        await page.screenshot({ path: file, fullPage: true });
        console.log(file);
      }
      if (!simulator) {
        // The fixture has no index prices.
        await page.getByLabel("Commodity").selectOption("NIFTY");
        await page.getByText("No chart data available for this selection").waitFor();
        const empty = `${outDir}/chart-empty-${width}-${colorScheme}.png`;
        await page.screenshot({ path: empty, fullPage: true });
        console.log(empty);
      }
      await page.context().close();
    }
  }
} finally {
  await browser.close();
  await app.stop();
}
