/**
 * Writes zscore-sample.csv, the hand-checked input of zscore-backtest.ts (see
 * src/zscore-example.test.ts for the arithmetic): 30 closes alternating 540/560 (mean 550,
 * std 10), then the spikes and dips that trade. Deterministic; in the chart's Download CSV format.
 *
 *   pnpm exec tsx packages/core/examples/make-zscore-sample.ts > packages/core/examples/zscore-sample.csv
 */
import { type Candle, candlesToCsv } from "@spreadwatch/core";

declare const process: { stdout: { write(text: string): void } };

const START = Date.UTC(2026, 10, 20, 4, 0); // 20 Nov 2026, 09:30 IST
const closes = [
  ...Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 540 : 560)),
  590,
  556,
  515,
  510,
  545,
  580,
  590,
  600,
  595,
];

let previous = closes[0] as number;
const candles: Candle[] = closes.map((close, i) => {
  const candle = {
    timestamp: START + i * 60_000,
    open: previous,
    high: Math.max(previous, close),
    low: Math.min(previous, close),
    close,
  };
  previous = close;
  return candle;
});
process.stdout.write(candlesToCsv("GC_BUY", "1m", candles));
