import { describe, expect, it } from "vitest";
import { statisticsSourceText } from "../components/chart/texts.ts";
import { coverageText, coveredSpanText } from "./statisticsCoverage.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const T = Date.UTC(2026, 10, 20, 4, 0);

describe("what a spread's statistics say they cover", () => {
  it("says the window's days once its past is in", () => {
    const coverage = { first: T - 20 * DAY, to: T, closes: 20_000, contracts: {}, loading: false };
    expect(coverageText(20, coverage)).toBe("20 days");
    expect(statisticsSourceText({ days: 20, coverage })).toBe(
      "Statistics: the recorded series, 20 days as quoted",
    );
  });

  it("says how far back the closes reach while the past loads, in the largest whole unit", () => {
    const span = (first: number | null, to: number | null, closes = 0) =>
      coveredSpanText({ first, to, closes });
    expect(span(null, null)).toBe("0 minutes");
    expect(span(T, T + MINUTE, 1)).toBe("1 minute");
    expect(span(T, T + 59 * MINUTE, 59)).toBe("59 minutes");
    expect(span(T, T + 2 * HOUR + 5 * MINUTE)).toBe("2 hours");
    expect(span(T, T + 3 * DAY + 23 * HOUR)).toBe("3 days");
    // A window that keeps no times (a user spread's side): its closes, one a minute.
    expect(span(null, T, 90)).toBe("1 hour");
    const coverage = {
      first: T - 3 * DAY,
      to: T,
      closes: 3_000,
      contracts: { GOLD: "GOLD26DECFUT", GC: "GCG27" },
      loading: true,
    };
    expect(coverageText(20, coverage)).toBe("3 of 20 days so far — history loading");
    expect(coverageText(20, { ...coverage, first: T - 5 * HOUR })).toBe(
      "5 hours of 20 days so far — history loading",
    );
    expect(statisticsSourceText({ days: 20, coverage })).toBe(
      "Statistics: the contracts quoted now (GOLD26DECFUT, GCG27), as quoted, 3 of 20 days so far — history loading",
    );
  });
});
