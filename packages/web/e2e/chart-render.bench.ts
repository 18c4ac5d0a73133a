// Chart render time in Chromium: from uPlot setData (with the x and y scales set to the new
// data, as the chart does) to the end of the draw hook, for 1,500 candles (what chart.candles
// returns at most) and 100,000, as a line and as candles. Printed, never asserted.
// Run: pnpm --filter @spreadwatch/web build && node --import tsx packages/web/e2e/chart-render.bench.ts
import { chartFixtureCsv, fixtureStart } from "./chart-fixtures.ts";
import { ADMIN, launchBrowser, login, newPage, startApp } from "./harness.ts";

const SIZES = [1_500, 100_000];
const RUNS = { 1500: 40, 100000: 10 } as Record<number, number>;
const GOAL_MS = 16;

const app = await startApp({ feed: "replay", replayCsv: chartFixtureCsv(fixtureStart()) });
const browser = await launchBrowser();
try {
  const page = await newPage(browser, { width: 1280, height: 900 });
  await login(page, app.url, ADMIN.username, ADMIN.password);
  await page.goto(`${app.url}/advanced-chart`);
  await page.getByLabel("Timeframe").selectOption("1m");
  console.log(`Chromium ${browser.version()}, headless, software canvas (--disable-gpu), 1280×900`);
  for (const kind of ["Line", "Candles"]) {
    await page.getByRole("button", { name: kind, exact: true }).click();
    await page.waitForFunction((k) => {
      const u = window.__spreadChart;
      const candles = u?.hooks.draw?.length ?? 0;
      return u !== undefined && (k === "Candles") === candles > 0;
    }, kind);
    for (const size of SIZES) {
      const times = await page.evaluate(measure, { size, runs: RUNS[size] ?? 10 });
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)] ?? Number.NaN;
      const p95 =
        times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)] ?? Number.NaN;
      const goal =
        size === 1_500 ? ` (goal ≤ ${GOAL_MS} ms: ${p95 <= GOAL_MS ? "met" : "NOT met"})` : "";
      console.log(
        `${kind.padEnd(7)} ${size.toLocaleString("en-US").padStart(7)} candles: median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms over ${times.length} runs${goal}`,
      );
      console.log(
        `RESULT ${JSON.stringify({ bench: "chart-render", kind: kind.toLowerCase(), candles: size, medianMs: median, p95Ms: p95 })}`,
      );
    }
  }
} finally {
  await browser.close();
  await app.stop();
}

/** Runs in the page: a random walk of `size` 1-minute candles, set `runs` times, each timed. */
async function measure({ size, runs }: { size: number; runs: number }): Promise<number[]> {
  const u = window.__spreadChart;
  if (!u) throw new Error("no chart on the page");
  const hooks = u.hooks as { draw?: ((self: unknown) => void)[] };
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const time: number[] = [];
    const open: number[] = [];
    const high: number[] = [];
    const low: number[] = [];
    const close: number[] = [];
    let value = 50 + run;
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < size; i++) {
      const o = value;
      value += Math.random() * 4 - 2;
      const h = Math.max(o, value) + Math.random();
      const l = Math.min(o, value) - Math.random();
      time.push(1_700_000_000_000 + i * 60_000);
      open.push(o);
      high.push(h);
      low.push(l);
      close.push(value);
      min = Math.min(min, l);
      max = Math.max(max, h);
    }
    // An unnamed hook, removed after it fired: tsx would wrap a named one in a helper the page lacks.
    hooks.draw ??= [];
    let resolveDrawn: ((at: number) => void) | undefined;
    const drawn = new Promise<number>((resolve) => {
      resolveDrawn = resolve;
    });
    hooks.draw.push(() => resolveDrawn?.(performance.now()));
    const started = performance.now();
    u.batch(() => {
      u.setData([time, close, open, high, low]);
      u.setScale("x", { min: time[0] as number, max: time[size - 1] as number });
      u.setScale("y", { min: min - 5, max: max + 5 });
    });
    times.push((await drawn) - started);
    hooks.draw.pop();
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  return times;
}
