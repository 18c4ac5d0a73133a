import { type Candle, candlesToCsv, chartCsvFileName, type Timeframe } from "@spreadwatch/core";

/** Saves the candles as "GC_BUY-1h.csv" through a Blob URL and a temporary link. */
export function downloadCsv(
  symbol: string,
  timeframe: Timeframe,
  candles: readonly Candle[],
): void {
  const blob = new Blob([candlesToCsv(symbol, timeframe, candles)], {
    type: "text/csv;charset=utf-8",
  });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = chartCsvFileName(symbol, timeframe);
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers; a minute is plenty.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
