// Screenshots of the dashboard for eyeballing layout and themes; not a test.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/shoot.ts [outDir]
import { mkdir } from "node:fs/promises";
import { fixtureCsv, oldFixtureCsv } from "./fixtures.ts";
import { launchBrowser, newPage, startApp } from "./harness.ts";

const outDir = process.argv[2] ?? "/tmp/shots";
// SHOOT_FEED: "replay" (the e2e fixture, default), "old" (the same quotes from 2024) or "simulator".
const feed = process.env.SHOOT_FEED ?? "replay";

await mkdir(outDir, { recursive: true });
const app = await startApp(
  feed === "simulator"
    ? { feed: "simulator" }
    : { feed: "replay", replayCsv: feed === "old" ? oldFixtureCsv() : fixtureCsv(Date.now()) },
);
const browser = await launchBrowser();
try {
  for (const width of [1280, 390]) {
    for (const colorScheme of ["light", "dark"] as const) {
      const page = await newPage(browser, { width, height: width > 600 ? 800 : 844, colorScheme });
      await page.goto(app.url);
      await page.locator("[data-symbol='GC_BUY'] [data-col='spread']").waitFor();
      const file = `${outDir}/dashboard-${width}-${colorScheme}.png`;
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
      await page.context().close();
    }
  }
} finally {
  await browser.close();
  await app.stop();
}
