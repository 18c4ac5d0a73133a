import {
  formatIstTimestamp,
  formatNumber,
  isSpreadSymbol,
  spreadDecimals,
  spreadSymbolLabel,
  type ThresholdSide,
} from "@spreadwatch/core";

function label(symbol: string): string {
  return isSpreadSymbol(symbol) ? spreadSymbolLabel(symbol) : symbol;
}

/** The Telegram text of one firing: commodity, threshold, spread, direction and IST time. */
export function alertMessage(firing: {
  commodityType: string;
  threshold: number;
  spread: number;
  side: ThresholdSide;
  at: number;
  count: number;
  limit: number;
}): string {
  const decimals = spreadDecimals(firing.commodityType);
  const direction = firing.side === "above" ? "crossed above ⬆️" : "crossed below ⬇️";
  const lines = [
    `🔔 ${label(firing.commodityType)} spread alert`,
    `Spread ${formatNumber(firing.spread, decimals)} ${direction} ${formatNumber(firing.threshold, decimals)}`,
    `Time: ${formatIstTimestamp(firing.at)}`,
    `Notification ${firing.count} of ${firing.limit}${firing.count >= firing.limit ? " — alert now disabled" : ""}`,
  ];
  return lines.join("\n");
}

export const CONNECTED_MESSAGE =
  "✅ Spreadwatch is connected. Your spread alerts with Telegram turned on will arrive in this chat.";

export const TEST_MESSAGE = "🧪 Test message from Spreadwatch: Telegram notifications are working.";
