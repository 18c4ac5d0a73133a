import { describe, expect, it } from "vitest";
import { type AlertView, alertTooltipLines } from "../src/alerts/texts.ts";
import {
  type AlertStatistics,
  metricValue,
  percentileRank,
  thresholdRangeError,
  waitingForStatistics,
} from "../src/components/alerts/metric.ts";

// The browser watcher's arithmetic for z-score and percentile alerts, with worked numbers.
// (Pure functions of the web package; they run here because e2e is the web's vitest project.)

/** 0th..100th percentiles of closes 0, 1, …, 100: the quantile i is i. */
const LINEAR = Array.from({ length: 101 }, (_, i) => i);

function stats(fields: Partial<AlertStatistics>): AlertStatistics {
  return {
    symbol: "GC_BUY",
    days: 20,
    n: 1000,
    value: null,
    mean: null,
    std: null,
    z: null,
    percentile: null,
    min: null,
    max: null,
    from: null,
    to: null,
    ...fields,
  } as AlertStatistics;
}

describe("percentileRank", () => {
  it("interpolates between neighbouring quantiles", () => {
    expect(percentileRank(LINEAR, 42.5)).toBeCloseTo(42.5, 10);
    // Quantiles 10 apart: 125 lies a quarter of the way from the 12th (120) to the 13th (130).
    const tens = LINEAR.map((q) => q * 10);
    expect(percentileRank(tens, 122.5)).toBeCloseTo(12.25, 10);
  });

  it("clamps below the minimum and at or above the maximum", () => {
    expect(percentileRank(LINEAR, -5)).toBe(0);
    expect(percentileRank(LINEAR, 100)).toBe(100);
    expect(percentileRank(LINEAR, 1e6)).toBe(100);
  });

  it("ranks a value equal to a flat run at the run's top (share at or below it)", () => {
    // Percentiles 0..49 are 1, 50..100 are 2: a spread of exactly 1 is at the 49th.
    const flat = LINEAR.map((i) => (i < 50 ? 1 : 2));
    expect(percentileRank(flat, 1)).toBe(49);
    expect(percentileRank(flat, 1.5)).toBeCloseTo(49.5, 10);
  });

  it("refuses a malformed quantiles array", () => {
    expect(percentileRank(LINEAR.slice(0, 100), 5)).toBeUndefined();
    expect(percentileRank([...LINEAR.slice(0, 100), Number.NaN], 5)).toBeUndefined();
    expect(percentileRank(LINEAR, Number.NaN)).toBeUndefined();
  });
});

describe("metricValue", () => {
  it("is the spread itself for a spread alert", () => {
    expect(metricValue("spread", 128.38, undefined)).toBe(128.38);
  });

  it("is (spread − mean) / std for a z-score alert", () => {
    expect(metricValue("zscore", 130, stats({ mean: 120, std: 4 }))).toBe(2.5);
    expect(metricValue("zscore", 110, stats({ mean: 120, std: 4 }))).toBe(-2.5);
  });

  it("waits (undefined) without a usable mean and std, or without quantiles", () => {
    expect(metricValue("zscore", 130, undefined)).toBeUndefined();
    expect(metricValue("zscore", 130, stats({ mean: 120, std: 0 }))).toBeUndefined();
    expect(metricValue("percentile", 50, stats({ mean: 1, std: 1 }))).toBeUndefined();
    expect(waitingForStatistics("percentile", stats({}))).toBe(true);
    expect(waitingForStatistics("zscore", stats({ mean: 1, std: 2 }))).toBe(false);
    expect(waitingForStatistics("spread", undefined)).toBe(false);
  });

  it("ranks the spread among the window's quantiles for a percentile alert", () => {
    expect(metricValue("percentile", 95.5, stats({ quantiles: LINEAR }))).toBeCloseTo(95.5, 10);
    expect(waitingForStatistics("percentile", stats({ quantiles: LINEAR }))).toBe(false);
  });
});

describe("thresholdRangeError", () => {
  it("holds z-scores to ±20 and percentiles to 0–100, spreads to nothing", () => {
    expect(thresholdRangeError("zscore", 20)).toBeUndefined();
    expect(thresholdRangeError("zscore", -20.01)).toBe(
      "A Z-score threshold must be from -20 to 20.",
    );
    expect(thresholdRangeError("percentile", 100.5)).toBe(
      "A Percentile threshold must be from 0 to 100.",
    );
    expect(thresholdRangeError("spread", -1e9)).toBeUndefined();
  });
});

describe("alertTooltipLines", () => {
  const alert = {
    id: 1,
    commodityType: "GC_BUY",
    threshold: 2,
    metric: "zscore",
    hysteresis: 0.5,
    enabled: false,
    disabledReason: "Telegram limit 3 of 3 reached at 14:02 IST",
    soundId: "beep",
    telegramNotify: true,
    telegramMaxNotifications: 3,
    telegramNotificationCount: 3,
    notificationCount: 0,
  } as unknown as AlertView;

  it("names a non-spread metric after the threshold, the re-arm distance and why it is off", () => {
    const lines = alertTooltipLines(alert);
    expect(lines[0]).toBe("Threshold: 2.00 (Z-score)");
    expect(lines).toContain("Re-arms after moving back: 0.50");
    expect(lines).toContain("Telegram limit 3 of 3 reached at 14:02 IST");
  });

  it("keeps the spec's plain threshold line for a spread alert", () => {
    const spread = { ...alert, metric: "spread", threshold: -250.5, hysteresis: null };
    expect(alertTooltipLines(spread as AlertView)[0]).toBe("Threshold: -250.50");
  });
});
