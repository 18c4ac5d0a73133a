/** Helpers for the chart tests: reading the uPlot instance that SpreadChart exposes on window. */
import type { Page, Request } from "playwright-core";

export interface Scales {
  x: { min: number; max: number };
  y: { min: number; max: number };
}

export function scales(page: Page): Promise<Scales> {
  return page.evaluate(() => {
    const u = window.__spreadChart;
    if (!u) throw new Error("no chart");
    const { x, y } = u.scales;
    return {
      x: { min: x?.min ?? Number.NaN, max: x?.max ?? Number.NaN },
      y: { min: y?.min ?? Number.NaN, max: y?.max ?? Number.NaN },
    };
  });
}

/**
 * The inputs of the chart.candles calls in a request. tRPC batches calls made together into one
 * GET (`/trpc/a,b?batch=1&input={"0":…,"1":…}`), so the input of a neighbour such as chart.rolls
 * (which has a `to` of its own) must not be read as the candles'.
 */
export function candlesInputs(request: Request): Record<string, unknown>[] {
  const url = new URL(request.url());
  const procedures = decodeURIComponent(url.pathname.split("/").pop() ?? "").split(",");
  const raw = url.searchParams.get("input");
  if (raw === null) return [];
  const inputs = JSON.parse(raw) as Record<string, unknown>;
  const batched = url.searchParams.get("batch") === "1";
  return procedures.flatMap((name, i) => {
    if (name !== "chart.candles") return [];
    const input = batched ? inputs[String(i)] : inputs;
    return input && typeof input === "object" ? [input as Record<string, unknown>] : [];
  });
}

/** Whether a request holds a chart.candles call whose input has these fields. */
export function isCandlesCall(request: Request, input: Record<string, string>): boolean {
  return candlesInputs(request).some((call) =>
    Object.entries(input).every(([key, value]) => call[key] === value),
  );
}

/** The `to` of each chart.candles call in a request that has one and has these fields. */
export function candlesTos(request: Request, input: Record<string, string>): number[] {
  return candlesInputs(request).flatMap((call) =>
    typeof call.to === "number" && Object.entries(input).every(([k, v]) => call[k] === v)
      ? [call.to]
      : [],
  );
}

/** The next chart.candles request whose input has these fields, e.g. { timeframe: "1m" }. */
export function nextCandlesCall(page: Page, input: Record<string, string>): Promise<Request> {
  return page.waitForRequest((request) => isCandlesCall(request, input));
}

/** Remembers the current chart instance, so rebuilt() can wait for a new one. */
export async function markChart(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as { __markedChart?: unknown }).__markedChart = window.__spreadChart;
  });
}

/** Waits for a chart instance other than the marked one, holding `points` candles. */
export async function rebuilt(page: Page, points: number): Promise<void> {
  await page.waitForFunction((n) => {
    const u = window.__spreadChart;
    const marked = (window as { __markedChart?: unknown }).__markedChart;
    return u !== undefined && u !== marked && u.data[0].length === n;
  }, points);
}

/** Waits for a chart (any instance) holding `points` candles. */
export async function chartWith(page: Page, points: number): Promise<void> {
  await page.waitForFunction((n) => window.__spreadChart?.data[0].length === n, points);
}

/**
 * Pixels of the plot area drawn in the colour of a theme variable (within a small tolerance
 * for anti-aliasing): proof that the canvas shows the series, not just axes and grid.
 */
export function pixelsOf(page: Page, cssVariable: string): Promise<number> {
  return page.evaluate((name) => {
    const u = window.__spreadChart;
    if (!u) return 0;
    const probe = document.createElement("canvas").getContext("2d");
    if (!probe) return 0;
    probe.fillStyle = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    probe.fillRect(0, 0, 1, 1);
    const [r = 0, g = 0, b = 0] = probe.getImageData(0, 0, 1, 1).data;
    const { left, top, width, height } = u.bbox;
    const px = u.ctx.getImageData(left, top, width, height).data;
    let count = 0;
    for (let i = 0; i < px.length; i += 4) {
      const near =
        Math.abs((px[i] ?? 0) - r) < 24 &&
        Math.abs((px[i + 1] ?? 0) - g) < 24 &&
        Math.abs((px[i + 2] ?? 0) - b) < 24;
      if (near && (px[i + 3] ?? 0) > 200) count++;
    }
    return count;
  }, cssVariable);
}

/** Page coordinates of a candle's time at a value, for hovering it. */
export function pointAt(
  page: Page,
  time: number,
  value: number,
): Promise<{ x: number; y: number }> {
  return page.evaluate(
    ([t, v]) => {
      const u = window.__spreadChart;
      if (!u) throw new Error("no chart");
      const rect = u.over.getBoundingClientRect();
      return {
        x: rect.left + u.valToPos(t as number, "x"),
        y: rect.top + u.valToPos(v as number, "y"),
      };
    },
    [time, value],
  );
}

/** The plot area's box in page coordinates. */
export function plotBox(
  page: Page,
): Promise<{ x: number; y: number; width: number; height: number }> {
  return page.evaluate(() => {
    const u = window.__spreadChart;
    if (!u) throw new Error("no chart");
    const r = u.over.getBoundingClientRect();
    return { x: r.left, y: r.top, width: r.width, height: r.height };
  });
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** IST wall time by plain arithmetic (UTC+5:30 all year), independent of the app's formatting. */
function ist(ms: number) {
  const d = new Date(ms + 330 * 60_000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    day: pad(d.getUTCDate()),
    time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`,
  };
}

/** 'MMM dd, yyyy HH:mm' in IST. */
export function istTitle(ms: number): string {
  const t = ist(ms);
  return `${MONTHS[t.month]} ${t.day}, ${t.year} ${t.time}`;
}

/** 'yyyy-MM-dd HH:mm' in IST, the CSV's first column. */
export function istCsvTime(ms: number): string {
  const t = ist(ms);
  return `${t.year}-${pad(t.month + 1)}-${t.day} ${t.time}`;
}
