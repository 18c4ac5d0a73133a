import type { RouterOutputs } from "@spreadwatch/api";
import { alertMetricName, formatNumber, type SoundId, soundLabel } from "@spreadwatch/core";
import { formatMetricThreshold } from "../components/alerts/metric.ts";
import { valueDecimals } from "./threshold.ts";

export type AlertView = RouterOutputs["alerts"]["list"]["alerts"][number];

export function alertSoundLabel(id: string): string {
  return soundLabel(id as SoundId);
}

/**
 * The notification of a firing (docs/spec.md §4): "Spread has reached 100.00 (current: 128.38)".
 * Both numbers use the spread's own decimals: 2, or 4 for copper, whose spreads are fractions.
 */
export function reachedMessage(symbol: string, threshold: number, current: number): string {
  const decimals = valueDecimals(symbol, current);
  return `Spread has reached ${formatNumber(threshold, decimals)} (current: ${formatNumber(current, decimals)})`;
}

/**
 * A toast's line after the commodity name: "crossed above 100.00 ⬆ — now 128.38". The direction
 * is in words and an arrow, so it reads at a glance and without colour.
 */
export function crossedMessage(
  symbol: string,
  side: "above" | "below",
  threshold: number,
  current: number,
): string {
  const decimals = valueDecimals(symbol, current);
  const arrow = side === "above" ? "⬆" : "⬇";
  return `crossed ${side} ${formatNumber(threshold, decimals)} ${arrow} — now ${formatNumber(current, decimals)}`;
}

/**
 * The server channels an alert has ticked, as its one notification limit is named
 * (docs/user-guide.md "Spread alerts"): "Telegram", "Webhook" or "Telegram + Webhook"; undefined
 * with neither, when only the browser alerts and no limit ever switches it off.
 */
export function serverChannels(alert: {
  telegramNotify: boolean;
  webhookNotify: boolean;
}): string | undefined {
  if (alert.telegramNotify && alert.webhookNotify) return "Telegram + Webhook";
  if (alert.telegramNotify) return "Telegram";
  return alert.webhookNotify ? "Webhook" : undefined;
}

/**
 * The bell's hover tooltip (docs/spec.md §2): threshold, status, sound, Telegram, limit, count. A z-score
 * or percentile alert names its metric after the threshold, so "2.00" is not read as a spread.
 */
export function alertTooltipLines(alert: AlertView): string[] {
  const threshold = formatMetricThreshold(alert.metric, alert.commodityType, alert.threshold);
  const metric = alert.metric === "spread" ? "" : ` (${alertMetricName(alert.metric)})`;
  const lines = [
    `Threshold: ${threshold}${metric}`,
    `Status: ${alert.enabled ? "Enabled" : "Disabled"}`,
    `Sound: ${alertSoundLabel(alert.soundId)}`,
    `Telegram: ${alert.telegramNotify ? "Yes" : "No"}`,
    ...(alert.webhookNotify ? ["Webhook: Yes"] : []),
    `Limit: ${alert.telegramMaxNotifications}`,
    `Count: ${alert.notificationCount}`,
  ];
  if (alert.hysteresis) {
    const rearm = formatMetricThreshold(alert.metric, alert.commodityType, alert.hysteresis);
    lines.push(`Re-arms after moving back: ${rearm}`);
  }
  if (alert.disabledReason) lines.push(alert.disabledReason);
  const channels = serverChannels(alert);
  if (channels) {
    lines.push(
      `${channels} sent: ${alert.telegramNotificationCount}/${alert.telegramMaxNotifications}`,
    );
  }
  return lines;
}
