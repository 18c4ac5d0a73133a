import {
  ALERT_METRIC_DECIMALS,
  alertMetricName,
  formatIstTimestamp,
  formatNumber,
  isAlertMetric,
  isSpreadSymbol,
  spreadDecimals,
  spreadSymbolLabel,
  type ThresholdSide,
} from "@spreadwatch/core";

function label(symbol: string): string {
  return isSpreadSymbol(symbol) ? spreadSymbolLabel(symbol) : symbol;
}

/** "49.95", "2.00", "95.0": a metric's value as messages show it (core's decimals). */
export function formatMetricValue(metric: string, value: number, symbol: string): string {
  const decimals = isAlertMetric(metric) ? ALERT_METRIC_DECIMALS[metric] : undefined;
  return formatNumber(value, decimals ?? spreadDecimals(symbol));
}

/**
 * The Telegram text of one firing: commodity, metric, value, direction, threshold and IST time.
 * A z-score or percentile alert also gives the spread it was computed from.
 */
export function alertMessage(firing: {
  commodityType: string;
  /** "spread" (the default), "zscore" or "percentile". */
  metric?: string;
  threshold: number;
  /** The metric's value that crossed. */
  value: number;
  /** The live spread; shown beside a z-score or percentile. */
  spread: number;
  side: ThresholdSide;
  at: number;
  count: number;
  limit: number;
}): string {
  const metric = firing.metric ?? "spread";
  const name = alertMetricName(metric);
  const symbol = firing.commodityType;
  const direction = firing.side === "above" ? "crossed above ⬆️" : "crossed below ⬇️";
  const value = formatMetricValue(metric, firing.value, symbol);
  const threshold = formatMetricValue(metric, firing.threshold, symbol);
  const spread =
    metric === "spread" ? "" : ` (spread ${formatNumber(firing.spread, spreadDecimals(symbol))})`;
  const lines = [
    `🔔 ${label(symbol)} ${name.toLowerCase()} alert`,
    `${name} ${value} ${direction} ${threshold}${spread}`,
    `Time: ${formatIstTimestamp(firing.at)}`,
    `Notification ${firing.count} of ${firing.limit}${firing.count >= firing.limit ? " — alert now disabled" : ""}`,
  ];
  return lines.join("\n");
}

export const CONNECTED_MESSAGE =
  "✅ Spreadwatch is connected. Your spread alerts with Telegram turned on will arrive in this chat.";

export const TEST_MESSAGE = "🧪 Test message from Spreadwatch: Telegram notifications are working.";
