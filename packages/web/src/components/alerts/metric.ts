import type { RouterOutputs } from "@spreadwatch/api";
import {
  ALERT_METRIC_DECIMALS,
  ALERT_METRIC_LABELS,
  ALERT_METRIC_RANGES,
  type AlertMetric,
  formatNumber,
  isAlertMetric,
  isSpreadSymbol,
  spreadDecimals,
} from "@spreadwatch/core";
import { formatThreshold } from "../../alerts/threshold.ts";

/** The form's one-line hint under the picker: what the number means. */
export const METRIC_HINTS: Record<AlertMetric, string> = {
  spread: "The live spread itself, in price points.",
  zscore:
    "How many standard deviations the spread is from its 20-day mean: ±2 is unusual (−20 to 20).",
  percentile: "Share of the last 20 days' 1-minute closes at or below the spread (0 to 100).",
};

/** A statistical metric's range (core's, as the server checks it); a spread shows none. */
export function metricRange(metric: AlertMetric): { min: number; max: number } | undefined {
  return metric === "spread" ? undefined : ALERT_METRIC_RANGES[metric];
}

/** "-20 to 20": the range as a threshold field's placeholder. */
export function metricRangeText(metric: AlertMetric): string | undefined {
  const range = metricRange(metric);
  return range && `${range.min} to ${range.max}`;
}

/** The sentence for a threshold outside the metric's range, or undefined when it fits. */
export function thresholdRangeError(metric: AlertMetric, threshold: number): string | undefined {
  const range = metricRange(metric);
  if (!range || (threshold >= range.min && threshold <= range.max)) return undefined;
  return `A ${ALERT_METRIC_LABELS[metric]} threshold must be from ${range.min} to ${range.max}.`;
}

/** A value of the metric as the list and the History show it. */
export function formatMetricValue(metric: string, symbol: string, value: number): string {
  const decimals = isAlertMetric(metric) ? ALERT_METRIC_DECIMALS[metric] : undefined;
  if (decimals !== undefined) return formatNumber(value, decimals);
  return isSpreadSymbol(symbol)
    ? formatNumber(value, spreadDecimals(symbol))
    : formatThreshold(symbol, value);
}

/** A threshold of the metric, as the list shows it (spread: docs/spec.md §9's decimals). */
export function formatMetricThreshold(metric: string, symbol: string, threshold: number): string {
  if (metric === "spread") return formatThreshold(symbol, threshold);
  return formatMetricValue(metric, symbol, threshold);
}

type StatsAnswer =
  RouterOutputs["market"]["statsAll"]["stats"][keyof RouterOutputs["market"]["statsAll"]["stats"]];

/**
 * One symbol's statistics as the watcher reads them. `quantiles` (101 values: the 0th..100th
 * percentiles of the window) is added to the answer by the alert-engine work; until it is
 * there, a percentile alert waits.
 */
export type AlertStatistics = StatsAnswer & { quantiles?: readonly number[] | null };

/**
 * Percentile rank of `value` among the window's closes, from its 101 quantiles: the share at or
 * below it, interpolated linearly between neighbouring quantiles. A run of equal quantiles (a
 * flat spread) ranks a value equal to them at the run's top, as "share ≤ value" demands.
 */
export function percentileRank(quantiles: readonly number[], value: number): number | undefined {
  if (quantiles.length !== 101 || !Number.isFinite(value)) return undefined;
  if (!quantiles.every(Number.isFinite)) return undefined;
  const first = quantiles[0] as number;
  if (value < first) return 0;
  // The last quantile at or below the value.
  let i = 0;
  while (i < 100 && (quantiles[i + 1] as number) <= value) i += 1;
  if (i === 100) return 100;
  const low = quantiles[i] as number;
  const high = quantiles[i + 1] as number;
  return i + (value - low) / (high - low);
}

/**
 * The value an alert's threshold is compared with, from the live spread: the spread itself,
 * its z-score against the window's mean and std, or its percentile rank. Undefined while the
 * statistics it needs are missing ("waiting for statistics"): such an alert does not fire.
 */
export function metricValue(
  metric: string,
  spread: number,
  stats: AlertStatistics | undefined,
): number | undefined {
  if (metric === "spread") return spread;
  if (metric === "zscore") {
    if (stats?.mean == null || stats.std == null || !(stats.std > 0)) return undefined;
    return (spread - stats.mean) / stats.std;
  }
  if (metric === "percentile") {
    if (!stats?.quantiles) return undefined;
    return percentileRank(stats.quantiles, spread);
  }
  return undefined;
}

/** Whether the metric needs statistics the browser does not have yet. */
export function waitingForStatistics(metric: string, stats: AlertStatistics | undefined): boolean {
  if (metric === "zscore") return !(stats?.mean != null && stats.std != null && stats.std > 0);
  if (metric === "percentile") return stats?.quantiles?.length !== 101;
  return false;
}
