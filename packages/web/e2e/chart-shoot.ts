// Screenshots of the Advanced Spread Chart for eyeballing: 1,700 one-minute candles with two
// alert thresholds (one disabled) and σ bands, line and candles, light and dark, 1280 and
// 390 px wide, hovering a candle; then the "Create alert at" offer, its modal and the Delete
// All message. Not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/chart-shoot.ts [outDir]
import { rest } from "./alerts.ts";
import { longHistoryCsv, longStart } from "./chart-fixtures.ts";
import { ADMIN, login, startApp } from "./harness.ts";
import { eachScreen, shoot } from "./shots.ts";

// SHOOT_FEED=simulator shows 30 days of backfilled history instead of the replayed minutes.
const simulator = process.env.SHOOT_FEED === "simulator";

const app = await startApp(
  simulator ? { feed: "simulator" } : { feed: "replay", replayCsv: longHistoryCsv(longStart()) },
);
await eachScreen(
  800,
  () => app.stop(),
  async (page, { tag }) => {
    page.on("pageerror", (e) => console.error("pageerror:", e));
    await login(page, app.url, ADMIN.username, ADMIN.password);
    await rest(page, "POST", "/api/alerts", { commodityType: "GC_BUY", threshold: 25 });
    await rest(page, "POST", "/api/alerts", {
      commodityType: "GC_BUY",
      threshold: -18.5,
      enabled: false,
    });
    await page.getByRole("link", { name: "Advanced Charts" }).click();
    await page.getByLabel("Timeframe").selectOption(simulator ? "1h" : "1m");
    await page.getByRole("button", { name: "±σ Bands" }).click();
    for (const kind of ["Line", "Candles"]) {
      await page.getByRole("button", { name: kind, exact: true }).click();
      await page.waitForFunction(() => document.querySelector(".chart__overlay") === null);
      await page.waitForFunction(() => (window.__spreadChart?.data[0].length ?? 0) > 1);
      const box = await page.locator(".u-over").boundingBox();
      if (box) await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.4);
      await shoot(page, `chart-${kind.toLowerCase()}-${tag}`, { fullPage: false });
    }
    const box = await page.locator(".u-over").boundingBox();
    if (box) await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.3);
    await page.getByTestId("chart-popover").waitFor();
    await shoot(page, `chart-popover-${tag}`, { fullPage: false });
    await page.getByRole("button", { name: /^Create alert at / }).click();
    await shoot(page, `chart-modal-${tag}`, { fullPage: false });
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    if (!simulator) {
      // The replay has no index prices.
      await page.getByLabel("Commodity").selectOption("NIFTY");
      await page.getByText("No chart data available for this selection").waitFor();
      await shoot(page, `chart-empty-${tag}`);
    }
  },
);
