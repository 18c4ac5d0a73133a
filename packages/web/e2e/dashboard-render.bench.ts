// What a live dashboard costs Chromium's renderer: main-thread time, script, layouts and the
// stream messages that caused them, over BENCH_RENDER_SECONDS on the simulator, at 1400 × 900
// and 390 × 844, with motion on (what a trader sees) and reduced (what the e2e pages use).
// Printed, never asserted (BENCHMARKS.md §32).
// Run: pnpm build && node --import tsx packages/web/e2e/dashboard-render.bench.ts (root)
//   BENCH_RENDER_SECONDS=20
import { loadavg } from "node:os";
import { ADMIN, launchBrowser, login, newPage, type PageOptions, startApp } from "./harness.ts";

const SECONDS = Number(process.env.BENCH_RENDER_SECONDS ?? 20);
const SETTLE_MS = 10_000;
const SCREENS: Array<PageOptions & { name: string }> = [
  { name: "1400 × 900, motion", width: 1400, height: 900, reducedMotion: "no-preference" },
  { name: "1400 × 900, reduced motion", width: 1400, height: 900, reducedMotion: "reduce" },
  { name: "390 × 844 touch, motion", width: 390, height: 844, hasTouch: true },
];
const METRICS = ["TaskDuration", "ScriptDuration", "LayoutDuration", "LayoutCount"] as const;

console.log(`load average at start: ${loadavg()[0]?.toFixed(2)}`);
const app = await startApp({ feed: "simulator" });
const browser = await launchBrowser();
try {
  for (const screen of SCREENS) {
    const page = await newPage(browser, { reducedMotion: "no-preference", ...screen });
    await login(page, app.url, ADMIN.username, ADMIN.password);
    await page.locator("tr[data-symbol='GC_BUY'] [data-col='spread']").waitFor();
    await page.waitForTimeout(SETTLE_MS);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    await cdp.send("Network.enable");
    let messages = 0;
    cdp.on("Network.eventSourceMessageReceived", () => {
      messages += 1;
    });
    const read = async () => {
      const { metrics } = await cdp.send("Performance.getMetrics");
      return new Map(metrics.map((metric) => [metric.name, metric.value]));
    };
    const before = await read();
    await page.waitForTimeout(SECONDS * 1000);
    const after = await read();
    const per = (name: (typeof METRICS)[number]) =>
      ((after.get(name) ?? 0) - (before.get(name) ?? 0)) / SECONDS;
    console.log(
      `${screen.name}: main thread ${(per("TaskDuration") * 1000).toFixed(0)} ms/s ` +
        `(script ${(per("ScriptDuration") * 1000).toFixed(0)}, layout ${(per("LayoutDuration") * 1000).toFixed(0)}), ` +
        `${per("LayoutCount").toFixed(1)} layouts/s, ${(messages / SECONDS).toFixed(1)} stream messages/s`,
    );
    await page.context().close();
  }
} finally {
  await browser.close();
  await app.stop();
}
