import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bucketStart, type Candle } from "./candles.ts";
import {
  CHART_BUILD_DELAY_MS,
  CHART_SERIES_LABEL,
  chartXRange,
  chartYBounds,
  clampYZoom,
  formatYTick,
  MAX_CHART_CANDLES,
  MIN_CHART_HEIGHT_PX,
  MIN_Y_ZOOM_RANGE,
  xAxisRule,
  xTickStepMs,
  xTicks,
  ZOOM_MODE_XY_TEXT,
  ZOOM_MODE_Y_TEXT,
} from "./chart-axis.ts";
import { formatTickLabel } from "./time.ts";
import { TIMEFRAMES, type Timeframe } from "./timeframe.ts";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const utc = (day: number, hour: number, minute: number) => Date.UTC(2026, 10, day, hour, minute);
const k = (timestamp: number, open: number, high: number, low: number, close: number): Candle => ({
  timestamp,
  open,
  high,
  low,
  close,
});

describe("chart constants", () => {
  it("are docs/spec.md §2, §4, §5, §9's", () => {
    expect(CHART_BUILD_DELAY_MS).toBe(100);
    expect(MIN_CHART_HEIGHT_PX).toBe(400);
    expect(MAX_CHART_CANDLES).toBe(1500);
    expect(MIN_Y_ZOOM_RANGE).toBe(10);
    expect(CHART_SERIES_LABEL).toBe("Spread Value");
    expect(ZOOM_MODE_Y_TEXT).toBe("Zoom Mode: Vertical (Y)");
    expect(ZOOM_MODE_XY_TEXT).toBe("Zoom Mode: Both Axes (XY)");
  });
});

describe("chartYBounds", () => {
  it("pads min and max of all OHLC values by 10 % of the range", () => {
    // range 200 (−50 … 150): pad 20
    expect(chartYBounds([k(0, 0, 150, -10, 20), k(1, 20, 30, -50, 10)])).toEqual({
      min: -70,
      max: 170,
    });
  });

  it("pads by at least 5", () => {
    expect(chartYBounds([k(0, 1, 3, 1, 2)])).toEqual({ min: -4, max: 8 });
    expect(chartYBounds([k(0, 7, 7, 7, 7)])).toEqual({ min: 2, max: 12 });
  });

  it("looks at open and close too, and skips non-numbers", () => {
    expect(chartYBounds([k(0, 100, 1, 0, -100)])).toEqual({ min: -120, max: 120 });
    expect(chartYBounds([k(0, Number.NaN, 1, 1, 1)])).toEqual({ min: -4, max: 6 });
    expect(chartYBounds([])).toBeUndefined();
    expect(chartYBounds([k(0, Number.NaN, Number.NaN, Number.NaN, Number.NaN)])).toBeUndefined();
  });
});

describe("clampYZoom", () => {
  it("widens a range narrower than 10 around its centre", () => {
    expect(clampYZoom(0, 4)).toEqual({ min: -3, max: 7 });
    expect(clampYZoom(5, 5)).toEqual({ min: 0, max: 10 });
  });

  it("keeps a range of 10 or more, swaps reversed ends, refuses non-numbers", () => {
    expect(clampYZoom(-5, 5)).toEqual({ min: -5, max: 5 });
    expect(clampYZoom(100, -100)).toEqual({ min: -100, max: 100 });
    expect(clampYZoom(4, 0)).toEqual({ min: -3, max: 7 });
    expect(clampYZoom(Number.NaN, 1)).toBeUndefined();
  });

  it("always gives at least 10 and contains the centre", () => {
    const n = fc.double({ min: -1e6, max: 1e6, noNaN: true });
    fc.assert(
      fc.property(n, n, (a, b) => {
        const r = clampYZoom(a, b);
        expect(r).toBeDefined();
        if (!r) return;
        expect(r.max - r.min).toBeGreaterThanOrEqual(MIN_Y_ZOOM_RANGE - 1e-9);
        expect((r.min + r.max) / 2).toBeCloseTo((a + b) / 2, 6);
      }),
    );
  });
});

describe("xAxisRule", () => {
  it("is docs/spec.md §9's table", () => {
    const rules = Object.fromEntries(TIMEFRAMES.map((tf) => [tf, xAxisRule(tf)]));
    expect(rules).toEqual({
      "1m": {
        unit: "minute",
        stepSize: 1,
        maxTicks: 6,
        tickFormat: "HH:mm",
        spanFirstToLast: true,
      },
      "5m": {
        unit: "minute",
        stepSize: 5,
        maxTicks: 8,
        tickFormat: "HH:mm",
        spanFirstToLast: true,
      },
      "15m": {
        unit: "minute",
        stepSize: 15,
        maxTicks: 10,
        tickFormat: "HH:mm",
        spanFirstToLast: false,
      },
      "1h": {
        unit: "hour",
        stepSize: 1,
        maxTicks: 10,
        tickFormat: "HH:mm",
        spanFirstToLast: false,
      },
      "4h": {
        unit: "hour",
        stepSize: 4,
        maxTicks: 10,
        tickFormat: "HH:mm",
        spanFirstToLast: false,
      },
      "1d": {
        unit: "day",
        stepSize: 1,
        maxTicks: 10,
        tickFormat: "dd MMM",
        spanFirstToLast: false,
      },
    });
    expect(TIMEFRAMES.map(xTickStepMs)).toEqual([MIN, 5 * MIN, 15 * MIN, HOUR, 4 * HOUR, DAY]);
  });
});

describe("xTicks", () => {
  it("puts ticks on IST unit × step boundaries inside the range", () => {
    // 13:31–15:20 UTC is 19:01–20:50 IST: hourly ticks at 20:00 IST only.
    const ticks = xTicks(utc(21, 13, 31), utc(21, 15, 20), "1h");
    expect(ticks).toEqual([utc(21, 14, 30)]);
    expect(ticks.map((t) => formatTickLabel(t, "1h"))).toEqual(["20:00"]);
    // 4h ticks at IST 00:00, 04:00 …: 18:30 and 22:30 UTC.
    expect(xTicks(utc(21, 18, 0), utc(21, 23, 0), "4h")).toEqual([
      utc(21, 18, 30),
      utc(21, 22, 30),
    ]);
    // Days start at IST midnight.
    expect(xTicks(utc(20, 0, 0), utc(23, 0, 0), "1d").map((t) => formatTickLabel(t, "1d"))).toEqual(
      ["21 Nov", "22 Nov", "23 Nov"],
    );
  });

  it("includes both ends when they are on the grid", () => {
    expect(xTicks(utc(21, 10, 0), utc(21, 10, 25), "5m")).toEqual([
      utc(21, 10, 0),
      utc(21, 10, 5),
      utc(21, 10, 10),
      utc(21, 10, 15),
      utc(21, 10, 20),
      utc(21, 10, 25),
    ]);
  });

  it("thins to at most maxTicks on round spacings", () => {
    // 1m over an hour: 61 grid lines, at most 6 ticks → every 15 min.
    const ticks = xTicks(utc(21, 10, 0), utc(21, 11, 0), "1m");
    expect(ticks.map((t) => formatTickLabel(t, "1m"))).toEqual([
      "15:30",
      "15:45",
      "16:00",
      "16:15",
      "16:30",
    ]);
    // 1h over 4 days (97 lines): every 12 h, at IST 00:00 and 12:00.
    const hours = xTicks(utc(17, 18, 30), utc(21, 18, 30), "1h");
    expect(hours).toHaveLength(9);
    expect(new Set(hours.map((t) => formatTickLabel(t, "1h")))).toEqual(
      new Set(["00:00", "12:00"]),
    );
    // …over 5 days (121 lines) 12 h would give 11: daily at IST midnight.
    const days = xTicks(utc(16, 18, 30), utc(21, 18, 30), "1h");
    expect(days).toHaveLength(6);
    expect(new Set(days.map((t) => formatTickLabel(t, "1h")))).toEqual(new Set(["00:00"]));
  });

  it("is empty for a reversed or non-finite range", () => {
    expect(xTicks(2, 1, "1m")).toEqual([]);
    expect(xTicks(Number.NaN, 1, "1m")).toEqual([]);
    expect(xTicks(0, Number.POSITIVE_INFINITY, "1d")).toEqual([]);
  });

  it("never exceeds maxTicks and stays on the grid, for any range", () => {
    const time = fc.integer({ min: utc(1, 0, 0) - 400 * DAY, max: utc(1, 0, 0) + 400 * DAY });
    fc.assert(
      fc.property(time, time, fc.constantFrom(...TIMEFRAMES), (a, b, tf: Timeframe) => {
        const [min, max] = a <= b ? [a, b] : [b, a];
        const ticks = xTicks(min, max, tf);
        expect(ticks.length).toBeLessThanOrEqual(xAxisRule(tf).maxTicks);
        for (const t of ticks) {
          expect(t).toBeGreaterThanOrEqual(min);
          expect(t).toBeLessThanOrEqual(max);
          expect(bucketStart(t, tf)).toBe(t);
        }
        // A range of at least one step always gets a tick.
        if (max - min >= xTickStepMs(tf)) expect(ticks.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe("chartXRange", () => {
  const candles = [k(utc(21, 10, 3), 1, 1, 1, 1), k(utc(21, 12, 47), 1, 1, 1, 1)];

  it("spans first to last point for 1m and 5m", () => {
    expect(chartXRange(candles, "1m")).toEqual({ min: utc(21, 10, 3), max: utc(21, 12, 47) });
    expect(chartXRange(candles, "5m")).toEqual({ min: utc(21, 10, 3), max: utc(21, 12, 47) });
  });

  it("gives a single 1m/5m point a candle either side", () => {
    expect(chartXRange([candles[0] as Candle], "5m")).toEqual({
      min: utc(21, 9, 58),
      max: utc(21, 10, 8),
    });
  });

  it("widens other timeframes to step boundaries covering the whole last candle", () => {
    expect(chartXRange(candles, "15m")).toEqual({ min: utc(21, 10, 0), max: utc(21, 13, 15) });
    expect(chartXRange(candles, "1h")).toEqual({ min: utc(21, 9, 30), max: utc(21, 14, 30) });
    const days = [k(utc(20, 18, 30), 1, 1, 1, 1), k(utc(21, 18, 30), 1, 1, 1, 1)];
    expect(chartXRange(days, "1d")).toEqual({ min: utc(20, 18, 30), max: utc(22, 18, 30) });
  });

  it("is undefined without candles", () => {
    expect(chartXRange([], "1h")).toBeUndefined();
  });
});

describe("formatYTick", () => {
  it("shows sign and 2 decimals", () => {
    expect(formatYTick(12.5)).toBe("+12.50");
    expect(formatYTick(-3)).toBe("-3.00");
    expect(formatYTick(0)).toBe("0.00");
    expect(formatYTick(-0.001)).toBe("0.00");
    expect(formatYTick(Number.NaN)).toBe("—");
  });
});
