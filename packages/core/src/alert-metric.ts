/**
 * What an alert's threshold is compared with (docs/user-guide.md, "Spread alerts"); "spread" is the
 * spec's alert.
 */
export const ALERT_METRICS = ["spread", "zscore", "percentile"] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

export function isAlertMetric(value: string): value is AlertMetric {
  return (ALERT_METRICS as readonly string[]).includes(value);
}

/**
 * Where each metric's threshold may lie: a z-score beyond ±20 or a percentile outside 0–100 can
 * never be reached, so such an alert is a mistake, not a choice. A spread threshold is any
 * finite number. Hysteresis is at most the metric's whole range.
 */
export const ALERT_METRIC_RANGES: Record<
  AlertMetric,
  { min: number; max: number; hysteresis: number }
> = {
  spread: { min: -Number.MAX_VALUE, max: Number.MAX_VALUE, hysteresis: 1_000_000 },
  zscore: { min: -20, max: 20, hysteresis: 40 },
  percentile: { min: 0, max: 100, hysteresis: 100 },
};

/** Each metric's name, as the alert form, the list, the History and the messages write it. */
export const ALERT_METRIC_LABELS: Record<AlertMetric, string> = {
  spread: "Spread",
  zscore: "Z-score",
  percentile: "Percentile",
};

/** Decimals of a statistic's values (z-scores 2, percentiles 1); a spread uses its symbol's. */
export const ALERT_METRIC_DECIMALS: Partial<Record<AlertMetric, number>> = {
  zscore: 2,
  percentile: 1,
};

/** A stored metric's name; one this release does not know, as it is. */
export function alertMetricName(metric: string): string {
  return isAlertMetric(metric) ? ALERT_METRIC_LABELS[metric] : metric;
}
