import { readFile } from "node:fs/promises";
import type { Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  chartFixtureCsv,
  type ExpectedCandle,
  expectedFiveMinuteCandles,
  expectedMinuteCandles,
  fixtureStart,
} from "./chart-fixtures.ts";
import {
  chartWith,
  istCsvTime,
  istTitle,
  markChart,
  nextCandlesCall,
  pixelsOf,
  plotBox,
  pointAt,
  rebuilt,
  scales,
} from "./chart-page.ts";
import { ADMIN, startApp } from "./harness.ts";
import { signedInSuite } from "./suite.ts";

const start = fixtureStart();
const minutes = expectedMinuteCandles(start);
const fives = expectedFiveMinuteCandles(start);

/** Inputs of every chart.candles request the page made, decoded. */
const chartRequests: string[] = [];

const suite = signedInSuite({
  app: () => startApp({ feed: "replay", replayCsv: chartFixtureCsv(start) }),
  beforeLogin: (page) =>
    page.on("request", (request) => {
      const url = decodeURIComponent(request.url());
      if (url.includes("chart.candles")) chartRequests.push(url);
    }),
  as: ADMIN,
  open: { link: "Advanced Charts", path: "/advanced-chart" },
});

const commodity = () => suite.page.getByLabel("Commodity");
const timeframe = () => suite.page.getByLabel("Timeframe");
const overlay = () => suite.page.getByTestId("chart-overlay");
const tooltip = () => suite.page.locator(".chart-tooltip");
const badge = () => suite.page.locator(".chart-badge");

const fixed = (n: number) => n.toFixed(2);

async function hover(candle: ExpectedCandle): Promise<void> {
  const { x, y } = await pointAt(suite.page, candle.timestamp, (candle.high + candle.low) / 2);
  await suite.page.mouse.move(x, y);
}

async function tooltipShows(candle: ExpectedCandle): Promise<void> {
  await expect
    .poll(() => tooltip().locator(".chart-tooltip__title").textContent())
    .toBe(istTitle(candle.timestamp));
  expect(await tooltip().locator("dt").allTextContents()).toEqual(["Open", "High", "Low", "Close"]);
  expect(await tooltip().locator("dd").allTextContents()).toEqual(
    [candle.open, candle.high, candle.low, candle.close].map(fixed),
  );
}

describe("advanced chart screen", () => {
  it("has the spec's header, selectors with their defaults, hint and info box", async () => {
    expect(await suite.page.locator("h1").textContent()).toBe("Advanced Spread Chart");
    // The screen's code loads on demand: its header shows while it arrives, the rest after.
    const back = suite.page.getByRole("link", { name: "Back to Dashboard" });
    await back.waitFor();
    await expect(back.isVisible()).resolves.toBe(true);
    expect(await suite.page.getByTestId("account-user").textContent()).toBe("Admin");
    await expect(suite.page.getByRole("button", { name: "Logout" }).isVisible()).resolves.toBe(
      true,
    );

    expect(await commodity().inputValue()).toBe("GC_BUY");
    const labels = await commodity().locator("option").allTextContents();
    expect(labels.slice(0, 4)).toEqual(["Gold Buy", "Gold Sell", "Silver Buy", "Silver Sell"]);
    expect(labels).toContain("Copper Buy");
    expect(labels.slice(-3)).toEqual(["Gold Spot", "Silver Spot", "NIFTY Index"]);
    expect(await timeframe().inputValue()).toBe("1h");
    expect(await timeframe().locator("option").allTextContents()).toEqual([
      "1m",
      "5m",
      "15m",
      "1h",
      "4h",
      "1d",
    ]);
    await expect(suite.page.getByRole("button", { name: "Reset Zoom" }).isVisible()).resolves.toBe(
      true,
    );
    const hint = await suite.page.locator(".chart-notes__hint").textContent();
    expect(hint).toMatch(/wheel zooms/i);
    expect(hint).toMatch(/axis/i);
    expect(hint).toMatch(/Shift \+ drag pans/);
    const info = await suite.page
      .getByRole("complementary", { name: "Reading the chart" })
      .textContent();
    expect(info).toContain("Above 0: MCX is higher than parity.");
    expect(info).toContain("Below 0: MCX is lower than parity.");
  });

  it("draws the default 1h chart: one candle, min height 400 px, canvas pixels in the series colour", async () => {
    await chartWith(suite.page, 1);
    expect(
      chartRequests.some(
        (u) => u.includes('"commodity":"GC_BUY"') && u.includes('"timeframe":"1h"'),
      ),
    ).toBe(true);
    const height = await suite.page
      .getByRole("region", { name: "Spread chart" })
      .evaluate((el) => el.clientHeight);
    expect(height).toBeGreaterThanOrEqual(400);
    await expect.poll(() => pixelsOf(suite.page, "--accent")).toBeGreaterThan(10);
  });

  it("switching the timeframe refetches and redraws (1m: six candles)", async () => {
    const request = nextCandlesCall(suite.page, { timeframe: "1m" });
    await markChart(suite.page);
    await timeframe().selectOption("1m");
    await request;
    await rebuilt(suite.page, 6);
    await expect.poll(() => pixelsOf(suite.page, "--accent")).toBeGreaterThan(200);
    // docs/spec.md §9: at 1m the x axis runs from the first point to the last.
    const { x, y } = await scales(suite.page);
    expect(x).toEqual({ min: start, max: start + 5 * 60_000 });
    // docs/spec.md §9: y bounds are the lowest low and highest high padded by max(10 % of range, 5).
    const pad = Math.max((40.8 - -20.9) * 0.1, 5);
    // (The fixture's asks carry 6 decimals, so the spreads are exact to about 1e-6.)
    expect(y.min).toBeCloseTo(-20.9 - pad, 5);
    expect(y.max).toBeCloseTo(40.8 + pad, 5);
  });

  it("hovering a candle shows its OHLC to 2 decimals under an IST 'MMM dd, yyyy HH:mm' title", async () => {
    const candle = minutes[3] as ExpectedCandle;
    await hover(candle);
    await tooltipShows(candle);
    await hover(minutes[0] as ExpectedCandle);
    await tooltipShows(minutes[0] as ExpectedCandle);
    await suite.page.mouse.move(1, 1);
    await expect.poll(() => tooltip().isVisible()).toBe(false);
  });

  it("5m candles aggregate the minutes (refetched)", async () => {
    const request = nextCandlesCall(suite.page, { timeframe: "5m" });
    await markChart(suite.page);
    await timeframe().selectOption("5m");
    await request;
    await rebuilt(suite.page, 2);
    await hover(fives[0] as ExpectedCandle);
    await tooltipShows(fives[0] as ExpectedCandle);
    await markChart(suite.page);
    await timeframe().selectOption("1m");
    await rebuilt(suite.page, 6);
  });

  it("the zoom-mode badge names what the wheel zooms where the pointer is", async () => {
    const plot = await plotBox(suite.page);
    await suite.page.mouse.move(plot.x + plot.width / 2, plot.y + plot.height / 2);
    await expect.poll(() => badge().textContent()).toBe("Zoom Mode: Both Axes (XY)");
    expect(await badge().isVisible()).toBe(true);
    await suite.page.mouse.move(plot.x + plot.width + 20, plot.y + plot.height / 2);
    await expect.poll(() => badge().textContent()).toBe("Zoom Mode: Vertical (Y)");
    expect(await badge().isVisible()).toBe(true);
    await suite.page.mouse.move(1, 1);
    await expect.poll(() => badge().isVisible()).toBe(false);
  });

  it("wheel zooms both axes over the plot, y over the axis, x below the plot; Reset Zoom restores", async () => {
    const home = await scales(suite.page);
    const plot = await plotBox(suite.page);
    const width = (r: { min: number; max: number }) => r.max - r.min;

    await suite.page.mouse.move(plot.x + plot.width / 2, plot.y + plot.height / 2);
    await suite.page.mouse.wheel(0, -100);
    await expect.poll(async () => width((await scales(suite.page)).x)).toBeLessThan(width(home.x));
    const both = await scales(suite.page);
    expect(width(both.y)).toBeLessThan(width(home.y));

    await suite.page.mouse.move(plot.x + plot.width + 20, plot.y + plot.height / 2);
    await suite.page.mouse.wheel(0, -100);
    await expect.poll(async () => width((await scales(suite.page)).y)).toBeLessThan(width(both.y));
    const yOnly = await scales(suite.page);
    expect(yOnly.x).toEqual(both.x);

    await suite.page.mouse.move(plot.x + plot.width / 2, plot.y + plot.height + 12);
    await suite.page.mouse.wheel(0, 100);
    await expect
      .poll(async () => width((await scales(suite.page)).x))
      .toBeGreaterThan(width(yOnly.x));
    expect((await scales(suite.page)).y).toEqual(yOnly.y);

    // docs/spec.md §5: however far the y axis is zoomed in, its range stays at least 10.
    await suite.page.mouse.move(plot.x + plot.width + 20, plot.y + plot.height / 2);
    for (let i = 0; i < 12; i++) await suite.page.mouse.wheel(0, -300);
    await expect.poll(async () => width((await scales(suite.page)).y)).toBeCloseTo(10, 9);

    await suite.page.getByRole("button", { name: "Reset Zoom" }).click();
    await expect.poll(() => scales(suite.page)).toEqual(home);
  });

  it("Shift + drag pans both axes without zooming", async () => {
    const home = await scales(suite.page);
    const plot = await plotBox(suite.page);
    const cx = plot.x + plot.width / 2;
    const cy = plot.y + plot.height / 2;
    await suite.page.mouse.move(cx, cy);
    await suite.page.keyboard.down("Shift");
    await suite.page.mouse.down();
    await suite.page.mouse.move(cx + plot.width / 4, cy + plot.height / 4, { steps: 4 });
    await suite.page.mouse.up();
    await suite.page.keyboard.up("Shift");
    const panned = await scales(suite.page);
    // Dragging right shows earlier times; dragging down shows higher values.
    const homeWidth = home.x.max - home.x.min;
    const shift = (home.x.min - panned.x.min) / homeWidth;
    expect(Math.abs(shift - 0.25)).toBeLessThan(0.01);
    expect(panned.x.max - panned.x.min).toBeCloseTo(homeWidth, 3);
    expect(panned.y.min).toBeGreaterThan(home.y.min);
    expect(panned.y.max - panned.y.min).toBeCloseTo(home.y.max - home.y.min, 6);
    await suite.page.getByRole("button", { name: "Reset Zoom" }).click();
    await expect.poll(() => scales(suite.page)).toEqual(home);
  });

  it("Candles draws green up and red down candles; the tooltip still reads the candle", async () => {
    await markChart(suite.page);
    await suite.page.getByRole("button", { name: "Candles", exact: true }).click();
    await rebuilt(suite.page, 6);
    expect(
      await suite.page
        .getByRole("button", { name: "Candles", exact: true })
        .getAttribute("aria-pressed"),
    ).toBe("true");
    await expect.poll(() => pixelsOf(suite.page, "--positive")).toBeGreaterThan(100);
    await expect.poll(() => pixelsOf(suite.page, "--negative")).toBeGreaterThan(100);
    await hover(minutes[2] as ExpectedCandle);
    await tooltipShows(minutes[2] as ExpectedCandle);
  });

  it("rebuilds in the other theme's colours when data-theme changes", async () => {
    await markChart(suite.page);
    await suite.page.evaluate(() => {
      document.documentElement.dataset.theme = "dark";
    });
    await rebuilt(suite.page, 6);
    const dark = await suite.page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue("--positive").trim(),
    );
    expect(dark).toBe("#3ec777");
    await expect.poll(() => pixelsOf(suite.page, "--positive")).toBeGreaterThan(100);
    await markChart(suite.page);
    await suite.page.evaluate(() => {
      document.documentElement.dataset.theme = "light";
    });
    await rebuilt(suite.page, 6);
    await suite.page.getByRole("button", { name: "Line", exact: true }).click();
  });

  it("Download CSV saves the loaded candles with the expected header and rows", async () => {
    const [download] = await Promise.all([
      suite.page.waitForEvent("download"),
      suite.page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("GC_BUY-1m.csv");
    const path = await download.path();
    const text = await readFile(path, "utf8");
    const expected = [
      "timestamp_ist,timestamp_ms,open,high,low,close",
      ...minutes.map((c) =>
        [
          `"${istCsvTime(c.timestamp)}"`,
          c.timestamp,
          fixed(c.open),
          fixed(c.high),
          fixed(c.low),
          fixed(c.close),
        ].join(","),
      ),
      "",
    ].join("\n");
    expect(text).toBe(expected);
  });

  it("a symbol without history shows the empty overlay", async () => {
    const request = nextCandlesCall(suite.page, { commodity: "NIFTY" });
    await commodity().selectOption("NIFTY");
    await request;
    await expect
      .poll(() => overlay().textContent())
      .toBe("No chart data available for this selection");
    expect(await suite.page.getByTestId("spread-chart").count()).toBe(0);
    expect(await suite.page.getByRole("button", { name: "Download CSV" }).isDisabled()).toBe(true);
    const info = await suite.page
      .getByRole("complementary", { name: "Reading the chart" })
      .textContent();
    expect(info).toContain("GIFT NIFTY − NIFTY 50");
  });

  it("keeps the selection in history.state across a reload", async () => {
    await commodity().selectOption("GC_SELL");
    await suite.page.reload();
    await suite.page.getByLabel("Commodity").waitFor();
    expect(await commodity().inputValue()).toBe("GC_SELL");
    expect(await timeframe().inputValue()).toBe("1m");
  });

  it("remembers the last symbol, timeframe and type for a fresh visit (no history.state)", async () => {
    await suite.page.getByRole("button", { name: "Candles", exact: true }).click();
    // A new tab of the same browser: its own (empty) history, the same localStorage.
    const tab = await suite.page.context().newPage();
    try {
      await tab.goto(`${suite.app.url}/advanced-chart`);
      expect(await tab.evaluate(() => history.state)).toBeNull();
      await tab.getByLabel("Commodity").waitFor();
      expect(await tab.getByLabel("Commodity").inputValue()).toBe("GC_SELL");
      expect(await tab.getByLabel("Timeframe").inputValue()).toBe("1m");
      const candles = tab.getByRole("button", { name: "Candles", exact: true });
      expect(await candles.getAttribute("aria-pressed")).toBe("true");
    } finally {
      await tab.close();
    }
    await suite.page.getByRole("button", { name: "Line", exact: true }).click();
  });

  it("opens the commodity passed in navigation state from the dashboard", async () => {
    await suite.page.getByRole("link", { name: "Back to Dashboard" }).click();
    await suite.page.waitForURL(`${suite.app.url}/`);
    const request = nextCandlesCall(suite.page, { commodity: "SI_SELL" });
    // What the dashboard does: navigate("/advanced-chart", { state: { commodity: "SI_SELL" } }).
    await suite.page.evaluate(() => {
      history.pushState({ commodity: "SI_SELL" }, "", "/advanced-chart");
      dispatchEvent(new PopStateEvent("popstate", { state: history.state }));
    });
    await suite.page.waitForURL(`${suite.app.url}/advanced-chart`);
    await request;
    expect(await commodity().inputValue()).toBe("SI_SELL");
    // The symbol comes from the dashboard; the timeframe is the one last chosen
    // (docs/decisions.md).
    expect(await timeframe().inputValue()).toBe("1m");
    await chartWith(suite.page, 1);
  });

  it("clicking a row of the dashboard's Spread table opens that row's chart; so does its symbol link", async () => {
    await suite.page.getByRole("link", { name: "Back to Dashboard" }).click();
    await suite.page.locator("tr[data-symbol='GC_SELL'] [data-col='cme']").click();
    await suite.page.waitForURL(`${suite.app.url}/advanced-chart`);
    expect(await commodity().inputValue()).toBe("GC_SELL");
    expect(await suite.page.evaluate(() => history.state)).toEqual({ commodity: "GC_SELL" });

    await suite.page.getByRole("link", { name: "Back to Dashboard" }).click();
    await suite.page.getByRole("link", { name: "SI_BUY", exact: true }).focus();
    await suite.page.keyboard.press("Enter");
    await suite.page.waitForURL(`${suite.app.url}/advanced-chart`);
    expect(await commodity().inputValue()).toBe("SI_BUY");
  });

  it("a failed request shows the load error; points that do not parse show the invalid-data text", async () => {
    // chart.candles may travel alone or batched with market.stats (the bands): answer it either
    // way, and every other procedure of the batch with an error (no bands, nothing else touched).
    const isCandles = (url: URL) =>
      url.pathname.startsWith("/api/trpc/") && url.pathname.includes("chart.candles");
    const stubCandles = (status: number, candles: unknown) => (r: Route) => {
      const procedures = new URL(r.request().url()).pathname.slice("/api/trpc/".length).split(",");
      const refused = {
        error: { message: "stubbed", code: -32600, data: { code: "BAD_REQUEST", httpStatus: 400 } },
      };
      return r.fulfill({
        status,
        contentType: "application/json",
        body: JSON.stringify(procedures.map((p) => (p === "chart.candles" ? candles : refused))),
      });
    };
    await suite.page.route(
      isCandles,
      stubCandles(400, {
        error: { message: "boom", code: -32600, data: { code: "BAD_REQUEST", httpStatus: 400 } },
      }),
    );
    await commodity().selectOption("GC_BUY");
    await expect
      .poll(() => overlay().textContent())
      .toBe("Failed to load chart data. Please try again.");
    await suite.page.unroute(isCandles);

    await suite.page.route(
      isCandles,
      stubCandles(207, {
        result: { data: { data: [{ timestamp: "not a date", close: "abc" }, { close: 1 }] } },
      }),
    );
    await commodity().selectOption("HG_BUY");
    await expect
      .poll(() => overlay().textContent())
      .toBe("No valid chart data available for this timeframe");
    await suite.page.unroute(isCandles);
  });
});
