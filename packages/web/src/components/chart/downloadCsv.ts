import { type Candle, candlesToCsv, chartCsvFileName, type Timeframe } from "@spreadwatch/core";

/**
 * Saves the candles as "GC_BUY-1h.csv" through a Blob URL and a temporary link; back-adjusted
 * candles as "GC_BUY-1h-back-adjusted.csv", so a file never passes adjusted prices off as traded.
 */
export function downloadCsv(
  symbol: string,
  timeframe: Timeframe,
  candles: readonly Candle[],
  backAdjusted = false,
): void {
  const blob = new Blob([candlesToCsv(symbol, timeframe, candles)], {
    type: "text/csv;charset=utf-8",
  });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  const name = chartCsvFileName(symbol, timeframe);
  link.download = backAdjusted ? name.replace(/\.csv$/, "-back-adjusted.csv") : name;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers; a minute is plenty.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
