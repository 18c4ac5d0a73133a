// Keeps examples/zscore-backtest.ts's README output true; vitest's core project collects tests
// from src only (see examples.test.ts).
import { describe, expect, it } from "vitest";
import { formatZScoreReport, parseCandles, runZScoreBacktest } from "../examples/zscore-csv.ts";

declare const process: {
  getBuiltinModule(id: "node:fs"): { readFileSync(path: string, encoding: "utf8"): string };
};
const here = (import.meta as { dirname?: string }).dirname ?? ".";
const sample = process
  .getBuiltinModule("node:fs")
  .readFileSync(`${here}/../examples/zscore-sample.csv`, "utf8");

describe("examples/zscore-backtest", () => {
  it("prints the README's report for zscore-sample.csv (numbers worked in zscore-backtest.test.ts)", () => {
    expect(formatZScoreReport(runZScoreBacktest(parseCandles(sample), "GC_BUY"))).toEqual([
      "GC_BUY, 1 lot GOLD (100 units), costs ₹1799.10 a round trip (MCX 72000.00, USDINR 84.0000)",
      "enter at |z| ≥ 2, exit at |z| ≤ 0.5, 20-day window, trading from 30 closes",
      "short  20/11/2026, 10:00:00 am IST  +590.00 (z +4.00)  →  20/11/2026, 10:01:00 am IST  +556.00 (z +0.39)  gross ₹3400.00  net ₹1600.90",
      "long   20/11/2026, 10:02:00 am IST  +515.00 (z -3.05)  →  20/11/2026, 10:04:00 am IST  +545.00 (z -0.28)  gross ₹3000.00  net ₹1200.90",
      "short  20/11/2026, 10:05:00 am IST  +580.00 (z +2.12)  →  20/11/2026, 10:08:00 am IST  +595.00 (end of data)  gross -₹1500.00  net -₹3299.10",
      "3 trades over 39 closes; per lot: gross ₹4900.00, costs ₹5397.30, net -₹497.30; max drawdown ₹3299.10",
    ]);
  });

  it("costs the chosen lot: GOLDM at MCX 72,000 has no CME leg", () => {
    // 10 units: turnover 14,40,000 (0.144 crore); exchange 30.24; SEBI 1.44; CTT 72.00;
    // stamp 14.40; brokerage 40; GST 0.18 × 71.68 = 12.9024; 40 + 30.24 + 1.44 + 72 + 14.40 + 12.9024 = 170.9824 → 170.98
    const run = runZScoreBacktest(parseCandles(sample), "GC_BUY", { lot: "GOLDM" });
    expect([run.units, run.costsPerTradeInr]).toEqual([10, 170.98]);
    // gross per trade a tenth: 340, 300, −150 → nets 169.02, 129.02, −320.98; total −22.94
    expect(run.result.netInr).toBe(-22.94);
  });

  it("reads chart-data JSON and IST-only CSVs alike", () => {
    const json = JSON.stringify({ data: [{ timestamp: 1_795_147_200_000, close: "540.5" }] });
    expect(parseCandles(json)).toEqual([{ timestamp: 1_795_147_200_000, close: 540.5 }]);
    // 2026-11-20 09:30 IST = 04:00 UTC
    expect(parseCandles("timestamp_ist,close\n2026-11-20 09:30,1.5\n")).toEqual([
      { timestamp: Date.UTC(2026, 10, 20, 4, 0), close: 1.5 },
    ]);
    // As Download CSV writes it: the IST time quoted.
    expect(parseCandles('timestamp_ist,close\n"2026-11-20 09:30",1.5\n')).toEqual([
      { timestamp: Date.UTC(2026, 10, 20, 4, 0), close: 1.5 },
    ]);
    expect(() => parseCandles("timestamp_ms,close\n1,\n")).toThrow("line 2");
    expect(() => parseCandles("open,close\n")).toThrow("line 1");
  });
});
