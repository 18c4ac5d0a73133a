import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { deleteAllAlertsByRest, modal, rest, thresholdInput } from "./alerts.ts";
import {
  LONG_LAST_CLOSE,
  LONG_MINUTES,
  longHistoryCsv,
  longStart,
  longValue,
} from "./chart-fixtures.ts";
import { candlesTos, chartWith, plotBox, pointAt, scales } from "./chart-page.ts";
import { ADMIN, RETRY_RESET, signIn, startApp } from "./harness.ts";
import { closePage, openPage } from "./spare-page.ts";
import { signedInSuite } from "./suite.ts";

/**
 * docs/user-guide.md "Advanced Spread Chart", on 1,700 one-minute GC_BUY candles: more than the
 * 1,500 the first request returns, so panning back has to fetch the rest.
 */
const start = longStart();
const MINUTE = 60_000;
const at = (i: number) => start + i * MINUTE;

/** The `to` of every chart.candles request that had one. */
const olderRequests: number[] = [];

const suite = signedInSuite({
  app: () => startApp({ feed: "replay", replayCsv: longHistoryCsv(start) }),
  beforeLogin: (page) =>
    page.on("request", (request) => {
      olderRequests.push(...candlesTos(request, { commodity: "GC_BUY" }));
    }),
  users: [{ username: "viewer", password: "viewer-secret-1", alerts_enabled: false }],
  as: ADMIN,
  open: { link: "Advanced Charts", path: "/advanced-chart" },
});

const page = () => suite.page;
const legend = () => page().getByTestId("chart-legend");
const lastTag = () => page().getByTestId("chart-last-value");
const cursorTag = () => page().getByTestId("chart-cursor-value");

/** Candles held, the oldest held, and how many of them lie inside the x range shown. */
function held(p: Page): Promise<{ count: number; oldest: number; inView: number }> {
  return p.evaluate(() => {
    const u = window.__spreadChart;
    if (!u) throw new Error("no chart");
    const t = u.data[0];
    const { min = 0, max = 0 } = u.scales.x ?? {};
    return {
      count: t.length,
      oldest: t[0] ?? Number.NaN,
      inView: t.filter((v) => v >= (min ?? 0) && v <= (max ?? 0)).length,
    };
  });
}

/** A touch pointer event at (x, y) on the chart, as a finger makes it. */
function touch(p: Page, type: "pointerdown" | "pointerup", x: number, y: number): Promise<void> {
  return p.evaluate(
    ([kind, cx, cy]) => {
      const over = window.__spreadChart?.over;
      const init = { pointerType: "touch", clientX: cx, clientY: cy, button: 0, bubbles: true };
      over?.dispatchEvent(new PointerEvent(kind, init));
    },
    [type, x, y] as const,
  );
}

/** Shift + drag from the plot's left edge to its right: one plot width back in time. */
async function panBack(p: Page): Promise<void> {
  const plot = await plotBox(p);
  const y = plot.y + plot.height / 2;
  await p.mouse.move(plot.x + 5, y);
  await p.keyboard.down("Shift");
  await p.mouse.down();
  await p.mouse.move(plot.x + plot.width - 5, y, { steps: 5 });
  await p.mouse.up();
  await p.keyboard.up("Shift");
}

const legendValues = () => legend().locator(".chart-legend__value").allTextContents();

/**
 * Pixels of the plot drawn in exactly the single σ band's translucent fill. The canvas is
 * transparent (the panel shows through), so compare colour and alpha as a probe draws it.
 */
function bandPixels(p: Page): Promise<number> {
  return p.evaluate(() => {
    const u = window.__spreadChart;
    const probe = document.createElement("canvas").getContext("2d");
    if (!u || !probe) return 0;
    probe.fillStyle = getComputedStyle(document.documentElement)
      .getPropertyValue("--chart-band")
      .trim();
    probe.fillRect(0, 0, 1, 1);
    const want = probe.getImageData(0, 0, 1, 1).data;
    const { left, top, width, height } = u.bbox;
    const px = u.ctx.getImageData(left, top, width, height).data;
    let count = 0;
    for (let i = 0; i < px.length; i += 4) {
      const near =
        Math.abs((px[i + 3] ?? 0) - (want[3] ?? 0)) <= 1 &&
        [0, 1, 2].every((c) => Math.abs((px[i + c] ?? 0) - (want[c] ?? 0)) <= 8);
      if (near) count++;
    }
    return count;
  });
}

describe("a chart to trade from", () => {
  it("opens on the last ~200 of the 1,500 candles loaded", async () => {
    await page().getByLabel("Timeframe").selectOption("1m");
    await chartWith(page(), 1500);
    const { inView, oldest } = await held(page());
    expect(inView).toBeGreaterThanOrEqual(199);
    expect(inView).toBeLessThanOrEqual(201);
    expect(oldest).toBe(at(LONG_MINUTES - 1500));
    // Nothing older was asked for while the view is at home.
    expect(olderRequests).toEqual([]);
  });

  it("labels the live value on the y axis, green for a positive close", async () => {
    await expect.poll(() => lastTag().textContent()).toBe(`+${LONG_LAST_CLOSE.toFixed(2)}`);
    expect(await lastTag().getAttribute("class")).toContain("chart-axis-tag--up");
    // At the close's height, on the axis right of the plot.
    const tag = await lastTag().boundingBox();
    const close = await pointAt(page(), at(LONG_MINUTES - 1), LONG_LAST_CLOSE);
    const plot = await plotBox(page());
    expect(tag).not.toBeNull();
    if (!tag) return;
    expect(Math.abs(tag.y + tag.height / 2 - close.y)).toBeLessThan(2);
    expect(tag.x).toBeGreaterThanOrEqual(plot.x + plot.width - 1);
  });

  it("names the series Spread Value with the latest OHLC, then the hovered candle's", async () => {
    expect(await legend().locator(".chart-legend__name").textContent()).toBe("Spread Value");
    expect(await legend().locator(".chart-legend__key").allTextContents()).toEqual([
      "Open",
      "High",
      "Low",
      "Close",
    ]);
    const last = LONG_LAST_CLOSE.toFixed(2);
    expect(await legendValues()).toEqual([last, last, last, last]);

    const i = LONG_MINUTES - 100;
    const { x, y } = await pointAt(page(), at(i), longValue(i));
    await page().mouse.move(x, y);
    const hovered = longValue(i).toFixed(2);
    await expect.poll(legendValues).toEqual([hovered, hovered, hovered, hovered]);

    // The crosshair's value on the y axis: the value under the pointer, to a pixel's worth.
    const shown = Number(await cursorTag().textContent());
    const { y: yr } = await scales(page());
    const plot = await plotBox(page());
    expect(Math.abs(shown - longValue(i))).toBeLessThanOrEqual(
      (yr.max - yr.min) / plot.height + 0.01,
    );

    await page().mouse.move(1, 1);
    await expect.poll(legendValues).toEqual([last, last, last, last]);
    expect(await cursorTag().isHidden()).toBe(true);
  });

  it("pans back through the loaded candles, then fetches the older ones without moving the view", async () => {
    const first = await held(page());
    let view = await scales(page());
    // Each drag moves one plot width (~200 candles) back; seven reach past the oldest held.
    for (let n = 0; n < 10 && view.x.min >= first.oldest; n++) {
      await panBack(page());
      view = await scales(page());
    }
    expect(view.x.min).toBeLessThan(first.oldest);
    await expect.poll(() => olderRequests).toContain(first.oldest);
    await expect.poll(async () => (await held(page())).count).toBe(LONG_MINUTES);
    // The merged candles did not move the view.
    expect(await scales(page())).toEqual(view);
    expect((await held(page())).oldest).toBe(at(0));

    // A candle from the fetched page reads in the legend.
    const i = 150;
    const { x, y } = await pointAt(page(), at(i), longValue(i));
    await page().mouse.move(x, y);
    const value = longValue(i).toFixed(2);
    await expect.poll(legendValues).toEqual([value, value, value, value]);
    await page().mouse.move(1, 1);

    // Reset Zoom goes back to the last ~200, with everything fetched still held.
    await page().getByRole("button", { name: "Reset Zoom" }).click();
    await expect.poll(async () => (await held(page())).inView).toBeLessThanOrEqual(201);
    expect((await held(page())).count).toBe(LONG_MINUTES);
  });

  it("draws each alert threshold of the symbol as a labelled line, dashed when disabled", async () => {
    await deleteAllAlertsByRest(page());
    for (const [threshold, enabled] of [
      [20, true],
      [-15.5, false],
    ] as const) {
      const created = await rest(page(), "POST", "/api/alerts", {
        commodityType: "GC_BUY",
        threshold,
        enabled,
      });
      expect(created.status).toBe(200);
    }
    // Another symbol's alert draws no line here.
    await rest(page(), "POST", "/api/alerts", { commodityType: "SI_BUY", threshold: 5 });
    await page().reload();
    await chartWith(page(), 1500);
    const lines = page().locator(".chart-threshold");
    await expect.poll(() => lines.count()).toBe(2);
    const on = page().locator(".chart-threshold[data-threshold='20']");
    const off = page().locator(".chart-threshold[data-threshold='-15.5']");
    expect(await on.textContent()).toBe("Alert 20.00");
    expect(await off.textContent()).toBe("Alert -15.50 (off)");
    const style = (l: typeof on) => l.evaluate((el) => getComputedStyle(el).borderTopStyle);
    expect(await style(on)).toBe("solid");
    expect(await style(off)).toBe("dashed");
    const box = await on.boundingBox();
    const level = await pointAt(page(), at(LONG_MINUTES - 1), 20);
    expect(box && Math.abs(box.y - level.y)).toBeLessThan(2);
  });

  it("a click on a price level offers Create alert at it, which creates the alert there", async () => {
    const plot = await plotBox(page());
    const { y } = await pointAt(page(), at(LONG_MINUTES - 1), 8);
    await page().mouse.click(plot.x + plot.width * 0.3, y);
    const offer = page().getByRole("button", { name: /^Create alert at / });
    await offer.waitFor();
    const picked = Number((await offer.textContent())?.replace("Create alert at ", ""));
    expect(Math.abs(picked - 8)).toBeLessThan(0.5);
    await offer.click();
    await modal(page()).waitFor();
    expect(await thresholdInput(page()).inputValue()).toBe(picked.toFixed(2));
    await modal(page()).getByRole("button", { name: "Create Alert" }).click();
    await modal(page()).waitFor({ state: "detached" });
    const { json } = await rest(page(), "GET", "/api/alerts");
    const alerts = json.alerts as { commodityType: string; threshold: number }[];
    expect(alerts).toContainEqual(
      expect.objectContaining({ commodityType: "GC_BUY", threshold: picked }),
    );
    // Its line appears at once (the create refetches the list).
    await expect.poll(() => page().locator(".chart-threshold").count()).toBe(3);
  });

  it("Escape closes the offer; a drag is no pick", async () => {
    const plot = await plotBox(page());
    await page().mouse.click(plot.x + plot.width / 2, plot.y + plot.height / 2);
    const offer = page().getByTestId("chart-popover");
    await offer.waitFor();
    await page().keyboard.press("Escape");
    await offer.waitFor({ state: "detached" });
    await page().mouse.move(plot.x + 100, plot.y + 100);
    await page().mouse.down();
    await page().mouse.move(plot.x + 160, plot.y + 140, { steps: 3 });
    await page().mouse.up();
    expect(await offer.count()).toBe(0);
  });

  it("offers no Delete All in the Create dialog: deleting belongs to editing", async () => {
    // Three GC_BUY alerts exist (two made above, one just now), so an Edit dialog would offer it.
    const plot = await plotBox(page());
    await page().mouse.click(plot.x + plot.width / 2, plot.y + plot.height / 2);
    await page()
      .getByRole("button", { name: /^Create alert at / })
      .click();
    await modal(page()).getByRole("button", { name: "Create Alert" }).waitFor();
    expect(await modal(page()).getByRole("button", { name: "Delete All" }).count()).toBe(0);
    expect(await modal(page()).getByRole("button", { name: "Delete" }).count()).toBe(0);
    await modal(page()).getByRole("button", { name: "Cancel" }).click();
    await modal(page()).waitFor({ state: "detached" });
    await deleteAllAlertsByRest(page());
  });

  it("keeps the labels of two thresholds a tick apart from covering each other", async () => {
    for (const threshold of [10, 9.5, 9]) {
      await rest(page(), "POST", "/api/alerts", { commodityType: "GC_BUY", threshold });
    }
    await page().reload();
    await chartWith(page(), 1500);
    await expect.poll(() => page().locator(".chart-threshold").count()).toBe(3);
    const boxes = [];
    for (const threshold of ["10", "9.5", "9"]) {
      const line = page().locator(`.chart-threshold[data-threshold='${threshold}']`);
      const [lineBox, labelBox] = await Promise.all([
        line.boundingBox(),
        line.locator(".chart-threshold__label").boundingBox(),
      ]);
      if (!lineBox || !labelBox) throw new Error(`threshold ${threshold} not drawn`);
      // Still beside its own line.
      expect(Math.abs(labelBox.y + labelBox.height / 2 - lineBox.y)).toBeLessThan(40);
      boxes.push(labelBox);
    }
    for (const [upper, lower] of [
      [boxes[0], boxes[1]],
      [boxes[1], boxes[2]],
    ]) {
      if (!upper || !lower) throw new Error("missing label");
      expect(upper.y + upper.height).toBeLessThanOrEqual(lower.y + 0.5);
    }
    await deleteAllAlertsByRest(page());
  });

  it("draws mean ± 1σ/2σ bands from the statistics when toggled on", async () => {
    // The real market.stats over the replay's 1,700 minutes (a ±30 swing: σ about 21).
    const stats = await (
      await page().request.get(`${suite.app.url}/api/spread-stats/GC_BUY?days=20`, RETRY_RESET)
    ).json();
    expect(stats.n).toBeGreaterThan(1000);
    expect(stats.std).toBeGreaterThan(10);
    const toggle = page().getByRole("button", { name: "±σ Bands" });
    await page().reload();
    await chartWith(page(), 1500);
    await toggle.waitFor();
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    expect(await bandPixels(page())).toBeLessThan(50);
    await toggle.click();
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    // Between 1σ and 2σ on either side lies a good share of the plot.
    await expect.poll(() => bandPixels(page())).toBeGreaterThan(2000);
    await toggle.click();
    await expect.poll(() => bandPixels(page())).toBeLessThan(50);
  });

  it("a long press on a touch screen offers Create alert at the pressed level", async () => {
    const plot = await plotBox(page());
    const { y } = await pointAt(page(), at(LONG_MINUTES - 1), -4);
    const x = plot.x + plot.width * 0.4;
    // The offer comes while the finger is down.
    await touch(page(), "pointerdown", x, y);
    const offer = page().getByRole("button", { name: /^Create alert at / });
    await offer.waitFor();
    const picked = Number((await offer.textContent())?.replace("Create alert at ", ""));
    expect(Math.abs(picked - -4)).toBeLessThan(0.5);
    await touch(page(), "pointerup", x, y);
    await page().keyboard.press("Escape");
    await offer.waitFor({ state: "detached" });
  });

  it("labels time ticks 'HH:mm' below 1d, the day under a day's first, and 'dd MMM' at 1d (docs/spec.md §9)", async () => {
    const labels = () =>
      page().evaluate(() => {
        const axis = window.__spreadChart?.axes[0] as { _values?: string[] } | undefined;
        return axis?._values ?? [];
      });
    // 1,700 minutes span an IST midnight: at 1h a tick lands on it and still reads "00:00",
    // with the new day under it; the first tick says which day the axis starts on.
    const day = "\\d\\d [A-Z][a-z]{2}";
    await page().getByLabel("Timeframe").selectOption("1h");
    await expect.poll(async () => (await labels()).length).toBeGreaterThan(2);
    await expect.poll(labels).toContainEqual(expect.stringMatching(new RegExp(`^00:00\n${day}$`)));
    for (const label of await labels())
      expect(label).toMatch(new RegExp(`^\\d\\d:\\d\\d(\n${day})?$`));
    expect((await labels())[0]).toMatch(new RegExp(`\n${day}$`));
    await page().getByLabel("Timeframe").selectOption("1d");
    await expect
      .poll(async () => (await labels()).every((l) => /^\d\d [A-Z][a-z]{2}$/.test(l)))
      .toBe(true);
    expect((await labels()).length).toBeGreaterThan(0);
    await page().getByLabel("Timeframe").selectOption("1m");
  });

  it("a user without alerts gets no threshold lines and no Create alert offer", async () => {
    // The admin's alert on GC_BUY is not the viewer's, and the viewer may not have alerts.
    await rest(page(), "POST", "/api/alerts", { commodityType: "GC_BUY", threshold: 0 });
    const viewer = await openPage(suite.browser);
    try {
      await signIn(viewer, suite.app.url, "viewer", "viewer-secret-1");
      await viewer.goto(`${suite.app.url}/advanced-chart`);
      await viewer.getByLabel("Timeframe").selectOption("1m");
      await chartWith(viewer, 1500);
      const plot = await plotBox(viewer);
      await viewer.mouse.click(plot.x + plot.width / 2, plot.y + plot.height / 2);
      // The click did reach the chart: the crosshair shows its value.
      await viewer.getByTestId("chart-cursor-value").waitFor();
      expect(await viewer.getByTestId("chart-popover").count()).toBe(0);
      expect(await viewer.locator(".chart-threshold").count()).toBe(0);
    } finally {
      await closePage(viewer);
    }
    await deleteAllAlertsByRest(page());
  });

  it("sends a signed-out visitor on an unknown path to /login", async () => {
    const visitor = await suite.browser.newPage();
    try {
      await visitor.goto(`${suite.app.url}/nonsense`);
      await visitor.waitForURL(`${suite.app.url}/login`);
    } finally {
      await visitor.close();
    }
    // A signed-in user still sees the not-found page.
    await page().goto(`${suite.app.url}/nonsense`);
    await page().getByText("This page does not exist.").waitFor();
  });
});
