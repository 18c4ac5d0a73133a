import { shippedInstrument } from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import { parseYahooChart, yahooHistorySymbol, yahooWindows } from "./yahoo-chart.ts";

const DAY = 86_400_000;
const NOW = Date.parse("2026-11-28T12:00:00Z");

describe("Yahoo's chart API", () => {
  it("parses the v8 shape and leaves out bars with nulls", () => {
    const body = {
      chart: {
        result: [
          {
            meta: { symbol: "GCG27.CMX", exchangeTimezoneName: "America/New_York" },
            timestamp: [1764331200, 1764331260, 1764331320],
            indicators: {
              quote: [
                {
                  open: [2650.1, null, 2651],
                  high: [2651, null, 2652],
                  low: [2649.9, null, 2650.5],
                  close: [2650.6, null, 2651.5],
                  volume: [10, 0, 4],
                },
              ],
            },
          },
        ],
        error: null,
      },
    };
    expect(parseYahooChart(body)).toEqual([
      { t: 1764331200_000, o: 2650.1, h: 2651, l: 2649.9, c: 2650.6 },
      { t: 1764331320_000, o: 2651, h: 2652, l: 2650.5, c: 2651.5 },
    ]);
  });

  it("a range without trades has no timestamp: no bars", () => {
    expect(
      parseYahooChart({
        chart: { result: [{ meta: {}, indicators: { quote: [{}] } }], error: null },
      }),
    ).toEqual([]);
  });

  it("says Yahoo's description of an error", () => {
    expect(() =>
      parseYahooChart({
        chart: {
          result: null,
          error: { code: "Not Found", description: "No data found, symbol may be delisted" },
        },
      }),
    ).toThrow(/symbol may be delisted/);
    expect(() => parseYahooChart({ nope: 1 })).toThrow(/chart.result/);
  });

  it("asks 1-minute bars 7 days a request for the last 30 days, 5-minute before, nothing past 60", () => {
    const twenty = yahooWindows(NOW - 20 * DAY, NOW, NOW);
    expect(twenty.map((w) => [w.interval, (w.to - w.from) / DAY])).toEqual([
      ["1m", 7],
      ["1m", 7],
      ["1m", 6],
    ]);
    const ninety = yahooWindows(NOW - 90 * DAY, NOW, NOW);
    expect(ninety[0]?.interval).toBe("5m");
    expect(ninety[0]?.from).toBe(NOW - 60 * DAY + 60_000);
    expect(ninety[0]?.to).toBe(ninety[1]?.from);
    expect(ninety.filter((w) => w.interval === "1m").every((w) => w.to - w.from <= 7 * DAY)).toBe(
      true,
    );
    expect(ninety.at(-1)?.to).toBe(NOW);
  });

  it("fetches the month's own symbol, never the glued front month", () => {
    // GC near is December (GCZ26) until its first notice day (30 Nov 2026), then February.
    const gc = shippedInstrument("GC");
    expect(yahooHistorySymbol("GC", gc, undefined, "2026-11-28")).toEqual({
      symbol: "GCZ26.CMX",
      contract: "GCZ26",
    });
    expect(yahooHistorySymbol("GC", gc, undefined, "2026-11-30")).toEqual({
      symbol: "GCG27.CMX",
      contract: "GCG27",
    });
    expect(yahooHistorySymbol("GC", shippedInstrument("GC"), "GCJ27.CMX", "2026-11-28")).toEqual({
      symbol: "GCJ27.CMX",
      contract: "GCJ27",
    });
    expect(
      yahooHistorySymbol("XAUUSD", shippedInstrument("XAUUSD"), undefined, "2026-11-28"),
    ).toEqual({
      symbol: "XAUUSD=X",
      contract: "XAUUSD=X",
    });
  });
});
