import { type AlertMetric, isAlertMetric } from "@spreadwatch/core";

/**
 * The key of the engine's stored last value of a (symbol, metric): the symbol alone for the
 * spread ("GC_BUY", as marks were stored before alerts had metrics), "GC_BUY|zscore" otherwise.
 */
export function markKey(symbol: string, metric: AlertMetric): string {
  return metric === "spread" ? symbol : `${symbol}|${metric}`;
}

/** The (symbol, metric) of a stored mark's key; undefined for a key this engine did not write. */
export function parseMarkKey(key: string): { symbol: string; metric: AlertMetric } | undefined {
  const [symbol, metric = "spread", ...rest] = key.split("|");
  if (!symbol || rest.length > 0) return undefined;
  if (!isAlertMetric(metric)) return undefined;
  return { symbol, metric };
}
