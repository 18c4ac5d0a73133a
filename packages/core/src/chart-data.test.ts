import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Candle } from "./candles.ts";
import {
  CHART_BUILD_ERROR_TEXT,
  CHART_CSV_HEADER,
  CHART_INVALID_DATA_TEXT,
  CHART_LOAD_ERROR_TEXT,
  CHART_LOADING_TEXT,
  CHART_NO_DATA_TEXT,
  candlesToCsv,
  chartCsvFileName,
  chartDataText,
  parseChartData,
} from "./chart-data.ts";

const T = Date.UTC(2026, 10, 21, 13, 30); // 19:00 IST

describe("chart texts", () => {
  it("are the spec's words", () => {
    expect(CHART_LOADING_TEXT).toBe("Loading chart data...");
    expect(CHART_NO_DATA_TEXT).toBe("No chart data available for this selection");
    expect(CHART_INVALID_DATA_TEXT).toBe("No valid chart data available for this timeframe");
    expect(CHART_LOAD_ERROR_TEXT).toBe("Failed to load chart data. Please try again.");
    expect(CHART_BUILD_ERROR_TEXT).toBe("Failed to initialize chart. Please try again.");
  });
});

describe("parseChartData", () => {
  it("is no-data without a data array, or with an empty one", () => {
    for (const body of [undefined, null, "x", 3, {}, { data: null }, { data: {} }, { data: [] }]) {
      const result = parseChartData(body);
      expect(result).toEqual({ status: "no-data" });
      expect(chartDataText(result)).toBe(CHART_NO_DATA_TEXT);
    }
  });

  it("is invalid when no point survives", () => {
    const result = parseChartData({
      data: [
        { timestamp: T, close: "abc" },
        { timestamp: "not a date", close: 1 },
        { timestamp: T, close: "" },
        { timestamp: null, close: 1 },
        { timestamp: T, close: null },
        { timestamp: T },
        null,
        7,
      ],
    });
    expect(result).toEqual({ status: "invalid" });
    expect(chartDataText(result)).toBe(CHART_INVALID_DATA_TEXT);
  });

  it("parses numbers and numeric strings, falling back to close for open, high, low", () => {
    const result = parseChartData({
      data: [
        { timestamp: T, open: "1.5", high: 3, low: "0.5", close: "2" },
        { timestamp: T + 60_000, close: -4 },
        { timestamp: T + 120_000, open: "x", high: null, close: 5, low: 4.5 },
        { timestamp: T + 180_000, value: "6.25" },
      ],
    });
    expect(result).toEqual({
      status: "ok",
      dropped: 0,
      candles: [
        { timestamp: T, open: 1.5, high: 3, low: 0.5, close: 2 },
        { timestamp: T + 60_000, open: -4, high: -4, low: -4, close: -4 },
        { timestamp: T + 120_000, open: 5, high: 5, low: 4.5, close: 5 },
        { timestamp: T + 180_000, open: 6.25, high: 6.25, low: 6.25, close: 6.25 },
      ],
    });
    expect(result.status === "ok" && chartDataText(result)).toBeUndefined();
  });

  it("drops invalid points and keeps the rest", () => {
    const result = parseChartData({
      data: [
        { timestamp: T, close: 1 },
        { timestamp: "2026-13-45", close: 2 },
        { timestamp: T + 60_000, close: "NaN" },
        { timestamp: T + 120_000, close: Number.POSITIVE_INFINITY },
        { timestamp: 9e15, close: 3 },
        { timestamp: T + 180_000, close: 4 },
      ],
    });
    expect(result.status === "ok" && result.candles.map((k) => k.close)).toEqual([1, 4]);
    expect(result.status === "ok" && result.dropped).toBe(4);
  });

  it("reads ISO strings and epoch-ms strings as times", () => {
    const result = parseChartData({
      data: [
        { timestamp: "2026-11-21T13:30:00.000Z", close: 1 },
        { timestamp: "2026-11-21T19:01:00+05:30", close: 2 },
        { timestamp: String(T + 120_000), close: 3 },
      ],
    });
    expect(result.status === "ok" && result.candles.map((k) => k.timestamp)).toEqual([
      T,
      T + 60_000,
      T + 120_000,
    ]);
  });

  it("sorts by time, the last of equal timestamps winning", () => {
    const result = parseChartData({
      data: [
        { timestamp: T + 60_000, close: 2 },
        { timestamp: T, close: 1 },
        { timestamp: T + 60_000, close: 3 },
      ],
    });
    expect(result.status === "ok" && result.candles.map((k) => [k.timestamp, k.close])).toEqual([
      [T, 1],
      [T + 60_000, 3],
    ]);
  });

  it("widens high and low over open and close", () => {
    const result = parseChartData({ data: [{ timestamp: T, open: 5, high: 4, low: 3, close: 2 }] });
    expect(result.status === "ok" && result.candles[0]).toEqual({
      timestamp: T,
      open: 5,
      high: 5,
      low: 2,
      close: 2,
    });
  });

  it("never throws and only yields drawable candles", () => {
    const anyPoint = fc.record(
      {
        timestamp: fc.oneof(fc.integer(), fc.string(), fc.double(), fc.constant(null)),
        open: fc.oneof(fc.double(), fc.string(), fc.constant(undefined)),
        high: fc.oneof(fc.double(), fc.string(), fc.constant(undefined)),
        low: fc.oneof(fc.double(), fc.string(), fc.constant(undefined)),
        close: fc.oneof(fc.double(), fc.string(), fc.integer()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.record({ data: fc.array(anyPoint) })), (body) => {
        const result = parseChartData(body);
        if (result.status !== "ok") return;
        let previous = Number.NEGATIVE_INFINITY;
        for (const k of result.candles) {
          for (const v of Object.values(k)) expect(Number.isFinite(v)).toBe(true);
          expect(k.high).toBeGreaterThanOrEqual(Math.max(k.open, k.close));
          expect(k.low).toBeLessThanOrEqual(Math.min(k.open, k.close));
          expect(k.timestamp).toBeGreaterThan(previous);
          previous = k.timestamp;
        }
      }),
    );
  });
});

describe("candlesToCsv", () => {
  const candles: Candle[] = [
    { timestamp: T, open: 1.005, high: 12.5, low: -3, close: 0 },
    { timestamp: Date.UTC(2026, 10, 21, 18, 30), open: 2, high: 2, low: 2, close: 2 },
  ];

  it("writes IST times, epoch ms and the symbol's decimals", () => {
    expect(candlesToCsv("GC_BUY", "1h", candles)).toBe(
      [
        CHART_CSV_HEADER,
        `"2026-11-21 19:00",${T},1.01,12.50,-3.00,0.00`,
        `"2026-11-22 00:00",${Date.UTC(2026, 10, 21, 18, 30)},2.00,2.00,2.00,2.00`,
        "",
      ].join("\n"),
    );
    expect(CHART_CSV_HEADER).toBe("timestamp_ist,timestamp_ms,open,high,low,close");
  });

  it("uses 4 decimals for copper and the date alone for 1d", () => {
    const lines = candlesToCsv("HG_SELL", "1d", candles).split("\n");
    expect(lines[1]).toBe(`"2026-11-21",${T},1.0050,12.5000,-3.0000,0.0000`);
    expect(lines[2]?.startsWith('"2026-11-22",')).toBe(true);
    expect(candlesToCsv("NIFTY", "1m", candles).split("\n")[1]).toContain(",1.01,");
  });

  it("writes a user spread's values with six significant digits: a ratio keeps its decimals", () => {
    const ratio = (close: number): Candle => ({
      timestamp: T,
      open: close,
      high: close,
      low: close,
      close,
    });
    expect(candlesToCsv("SP7_BUY", "1m", [ratio(0.844488888)]).split("\n")[1]).toBe(
      `"2026-11-21 19:00",${T},0.844489,0.844489,0.844489,0.844489`,
    );
    expect(candlesToCsv("SP7_SELL", "1m", [ratio(-1234.5678)]).split("\n")[1]).toContain(
      ",-1234.57,",
    );
    expect(candlesToCsv("SP7_SELL", "1m", [ratio(0.0001234567)]).split("\n")[1]).toContain(
      ",0.00012346,",
    );
    expect(candlesToCsv("SP7_SELL", "1m", [ratio(0)]).split("\n")[1]).toContain(",0.00,");
  });

  it("is just the header for no candles, and leaves broken values empty", () => {
    expect(candlesToCsv("GC_BUY", "1h", [])).toBe(`${CHART_CSV_HEADER}\n`);
    const broken = { timestamp: Number.NaN, open: Number.NaN, high: 1, low: 1, close: 1 };
    expect(candlesToCsv("GC_BUY", "1h", [broken]).split("\n")[1]).toBe(",,,1.00,1.00,1.00");
  });

  it("names the file after symbol and timeframe", () => {
    expect(chartCsvFileName("GC_BUY", "1h")).toBe("GC_BUY-1h.csv");
  });
});
