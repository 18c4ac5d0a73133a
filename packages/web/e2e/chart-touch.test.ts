import type { CDPSession, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { longHistoryCsv, longStart } from "./chart-fixtures.ts";
import { candlesTos, chartWith, plotBox, scales } from "./chart-page.ts";
import { ADMIN, signIn, startApp } from "./harness.ts";
import { signedOutSuite } from "./suite.ts";

/**
 * docs/user-guide.md "Advanced Spread Chart" on a phone (390 × 844, touch, mobile): the chart fills
 * the screen below its controls, one finger pans, two fingers pinch-zoom, and the hint speaks of
 * touch. Real touch events go through CDP, as a finger's would, so the browser's own touch handling
 * (touch-action, pointer events) is part of what is tested.
 */
const TOUCH_HINT =
  "Pinch to zoom, drag with one finger to pan, long-press a price to create an alert.";
const WIDTH = 390;
const HEIGHT = 844;

const suite = signedOutSuite({
  app: () => startApp({ feed: "replay", replayCsv: longHistoryCsv(longStart()) }),
  page: false,
});

let page: Page;
let cdp: CDPSession;

beforeAll(async () => {
  // harness.newPage has no isMobile; a phone needs it for the mobile viewport and coarse pointer.
  const context = await suite.browser.newContext({
    viewport: { width: WIDTH, height: HEIGHT },
    colorScheme: "light",
    hasTouch: true,
    isMobile: true,
  });
  page = await context.newPage();
  cdp = await context.newCDPSession(page);
  await signIn(page, suite.app.url, ADMIN.username, ADMIN.password);
  await page.goto(`${suite.app.url}/advanced-chart`);
  await page.getByLabel("Timeframe").selectOption("1m");
  await chartWith(page, 1500);
});

type Point = { x: number; y: number };

function touch(type: "touchStart" | "touchMove" | "touchEnd", fingers: Point[]) {
  return cdp.send("Input.dispatchTouchEvent", {
    type,
    touchPoints: fingers.map((f, id) => ({ x: f.x, y: f.y, id })),
  });
}

/** Fingers move in steps from `from` to `to` (one point per finger), then lift. */
async function gesture(from: Point[], to: Point[], steps = 8): Promise<void> {
  await touch("touchStart", from);
  for (let s = 1; s <= steps; s++) {
    const at = from.map((f, i) => {
      const t = to[i] ?? f;
      return { x: f.x + ((t.x - f.x) * s) / steps, y: f.y + ((t.y - f.y) * s) / steps };
    });
    await touch("touchMove", at);
  }
  await touch("touchEnd", []);
}

async function resetZoom(): Promise<void> {
  await page.getByRole("button", { name: "Reset Zoom" }).click();
}

describe("the chart on a phone", () => {
  it("says how to zoom and pan by touch", async () => {
    await expect.poll(() => page.locator(".chart-notes__hint").textContent()).toBe(TOUCH_HINT);
  });

  it("fills the screen below its controls, at least 400 px tall", async () => {
    const controls = await page.locator(".chart-screen__top").boundingBox();
    const chart = await page.getByRole("region", { name: "Spread chart" }).boundingBox();
    expect(controls).not.toBeNull();
    expect(chart).not.toBeNull();
    if (!controls || !chart) return;
    expect(chart.y).toBeGreaterThanOrEqual(controls.y + controls.height);
    // Nothing but the screen's gap between the controls and the chart.
    expect(chart.y - (controls.y + controls.height)).toBeLessThanOrEqual(16);
    expect(Math.abs(chart.y + chart.height - HEIGHT)).toBeLessThanOrEqual(3);
    expect(chart.height).toBeGreaterThanOrEqual(400);
  });

  it("pans time with one finger: the data follows it", async () => {
    await resetZoom();
    const plot = await plotBox(page);
    const y = plot.y + plot.height / 2;
    const before = await scales(page);
    const width = before.x.max - before.x.min;
    const third = plot.width / 3;

    // Finger to the right: earlier candles come into view.
    await gesture([{ x: plot.x + third, y }], [{ x: plot.x + 2 * third, y }]);
    const back = await scales(page);
    expect(back.x.min).toBeLessThan(before.x.min - width / 4);
    expect(back.x.max - back.x.min).toBeCloseTo(width, -1);

    // And back to the left: later ones again.
    await gesture([{ x: plot.x + 2 * third, y }], [{ x: plot.x + third, y }]);
    const forth = await scales(page);
    expect(forth.x.min).toBeGreaterThan(back.x.min + width / 4);
  });

  it("loads older candles when a finger pans past the oldest", async () => {
    await resetZoom();
    const older = page.waitForRequest(
      (r) => candlesTos(r, { commodity: "GC_BUY", timeframe: "1m" }).length > 0,
    );
    const plot = await plotBox(page);
    const y = plot.y + plot.height / 2;
    // About 200 of the 1,500 candles held are in view: eight plot widths reach past them.
    for (let i = 0; i < 8; i++) {
      await gesture([{ x: plot.x + 10, y }], [{ x: plot.x + plot.width - 10, y }], 4);
    }
    await older;
  });

  it("zooms time in about the pinch centre when two fingers spread", async () => {
    await resetZoom();
    const plot = await plotBox(page);
    const y = plot.y + plot.height / 2;
    const centre = plot.x + plot.width / 2;
    const before = await scales(page);
    const mid = (before.x.min + before.x.max) / 2;
    await gesture(
      [
        { x: centre - 40, y },
        { x: centre + 40, y },
      ],
      [
        { x: centre - 120, y },
        { x: centre + 120, y },
      ],
    );
    const after = await scales(page);
    const ratio = (after.x.max - after.x.min) / (before.x.max - before.x.min);
    expect(ratio).toBeGreaterThan(0.25);
    expect(ratio).toBeLessThan(0.45);
    // The time under the fingers' centre stayed there.
    const width = before.x.max - before.x.min;
    expect(Math.abs((after.x.min + after.x.max) / 2 - mid)).toBeLessThan(width / 50);
  });

  it("zooms the values when the pinch is vertical, never narrower than 10", async () => {
    await resetZoom();
    const plot = await plotBox(page);
    const x = plot.x + plot.width / 2;
    const centre = plot.y + plot.height / 2;
    const before = await scales(page);
    expect(before.y.max - before.y.min).toBeGreaterThan(40);
    // Fingers spread eight times as far apart: far past the y floor.
    await gesture(
      [
        { x, y: centre - 25 },
        { x, y: centre + 25 },
      ],
      [
        { x, y: centre - 200 },
        { x, y: centre + 200 },
      ],
    );
    const after = await scales(page);
    expect(after.y.max - after.y.min).toBeCloseTo(10, 6);
  });

  it("leaves a drag outside the plot to the page, which scrolls to the notes", async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    const controls = await page.locator(".chart-screen__top").boundingBox();
    if (!controls) throw new Error("no controls");
    const x = controls.x + controls.width / 2;
    const y = controls.y + controls.height / 2;
    await gesture([{ x, y }], [{ x, y: y - 120 }]);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(40);
    await page.evaluate(() => window.scrollTo(0, 0));
  });

  it("still offers an alert at a long-pressed price", async () => {
    await resetZoom();
    const plot = await plotBox(page);
    const at = { x: plot.x + plot.width / 2, y: plot.y + plot.height / 2 };
    await touch("touchStart", [at]);
    const offer = page.getByRole("button", { name: /^Create alert at / });
    await offer.waitFor();
    await touch("touchEnd", []);
    await page.keyboard.press("Escape");
    await offer.waitFor({ state: "detached" });
  });
});
