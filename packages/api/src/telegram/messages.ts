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

/** The most decimals a definition's value is written with. */
const MAX_DEFINITION_DECIMALS = 8;

/**
 * Decimals of a definition's spread in a message (a formula has no unit to take them from): 2,
 * as every spread, or as many as the alert's threshold was typed with (a ratio alert at 0.0125
 * reads "0.0126 crossed above 0.0125"); at most 8. Without a threshold in its units (a z-score
 * alert's spread), a value under 1 keeps four significant digits (0.01234, not 0.01).
 */
export function definitionDecimals(of: { threshold: number } | { value: number }): number {
  let decimals = 2;
  if ("threshold" in of) {
    decimals = /\.(\d+)$/.exec(String(of.threshold))?.[1]?.length ?? 0;
  } else if (Number.isFinite(of.value) && of.value !== 0 && Math.abs(of.value) < 1) {
    decimals = 3 - Math.floor(Math.log10(Math.abs(of.value)));
  }
  return Math.min(Math.max(decimals, 2), MAX_DEFINITION_DECIMALS);
}

/** "49.95", "2.00", "95.0": a metric's value as messages show it (core's decimals). */
export function formatMetricValue(
  metric: string,
  value: number,
  symbol: string,
  /** A definition's spread decimals (definitionDecimals); a built-in's are its symbol's. */
  spreadPlaces = spreadDecimals(symbol),
): string {
  const decimals = isAlertMetric(metric) ? ALERT_METRIC_DECIMALS[metric] : undefined;
  return formatNumber(value, decimals ?? spreadPlaces);
}

/**
 * The Telegram text of one firing: commodity, metric, value, direction, threshold and IST time.
 * A z-score or percentile alert also gives the spread it was computed from. A definition's
 * symbol (SP7_BUY) is named by `label` ("Gold/silver Buy") and written with decimals that suit
 * its values; a built-in's by core's label and decimals.
 */
export function alertMessage(firing: {
  commodityType: string;
  /** The symbol's name for people: "Gold/silver Buy". Built-ins: core's ("Gold Buy"). */
  label?: string | undefined;
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
  const builtIn = isSpreadSymbol(symbol);
  const label = builtIn ? spreadSymbolLabel(symbol) : (firing.label ?? symbol);
  const direction = firing.side === "above" ? "crossed above ⬆️" : "crossed below ⬇️";
  const places = builtIn
    ? spreadDecimals(symbol)
    : definitionDecimals(
        metric === "spread" ? { threshold: firing.threshold } : { value: firing.spread },
      );
  const value = formatMetricValue(metric, firing.value, symbol, places);
  const threshold = formatMetricValue(metric, firing.threshold, symbol, places);
  const spread = metric === "spread" ? "" : ` (spread ${formatNumber(firing.spread, places)})`;
  const lines = [
    `🔔 ${label} ${name.toLowerCase()} alert`,
    `${name} ${value} ${direction} ${threshold}${spread}`,
    `Time: ${formatIstTimestamp(firing.at)}`,
    `Notification ${firing.count} of ${firing.limit}${firing.count >= firing.limit ? " — alert now disabled" : ""}`,
  ];
  return lines.join("\n");
}

export const CONNECTED_MESSAGE =
  "✅ Spreadwatch is connected. Your spread alerts with Telegram turned on will arrive in this chat.";

export const TEST_MESSAGE = "🧪 Test message from Spreadwatch: Telegram notifications are working.";
