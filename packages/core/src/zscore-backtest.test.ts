import { describe, expect, it } from "vitest";
import { backtestZScore } from "./zscore-backtest.ts";

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 20, 4, 0);
const candles = (closes: number[]) =>
  closes.map((close, i) => ({ timestamp: T0 + i * MIN, close }));

// 30 closes alternating 540/560: mean 550, population std 10 (every deviation is ±10). Then the
// moves of examples/zscore-sample.csv. Each z is of a close against the closes BEFORE it; with
// d = close − 550 the running sums Σd, Σd² give mean = 550 + Σd/n, var = Σd²/n − (Σd/n)².
const BASE = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 540 : 560)); // Σd 0, Σd² 3,000
const SAMPLE = [...BASE, 590, 556, 515, 510, 545, 580, 590, 600, 595];
// One GOLD lot (100 units) at MCX 72,000 and USDINR 84 (as the example script costs it):
// turnover 2 × 72,00,000 = 1.44 crore; brokerage 40; exchange 1.44 × 210 = 302.40; SEBI 14.40;
// CTT 720.00; stamp 144.00; GST 0.18 × 356.80 = 64.224; CME 3 MGC × 2 × $1.02 × 84 = 514.08;
// total 1,799.104 → 1,799.10
const COSTS = 1799.1;

describe("backtestZScore", () => {
  it("trades the sample by hand: two winners, then a loser closed at the end of data", () => {
    const result = backtestZScore(candles(SAMPLE), 100, COSTS);
    // #30 590: n 30, z = (590 − 550) / 10 = +4.00 ≥ 2 → short at 590
    //   after: n 31, Σd 40, Σd² 4,600 → mean 551.2903, var 148.3871 − 1.6649 = 146.7222, std 12.1129
    // #31 556: z = (556 − 551.2903) / 12.1129 = +0.389 ≤ 0.5 → exit; gross (590 − 556) × 100 = 3,400
    //   after: n 32, Σd 46, Σd² 4,636 → mean 551.4375, var 144.875 − 2.0664 = 142.8086, std 11.9503
    // #32 515: z = (515 − 551.4375) / 11.9503 = −3.049 ≤ −2 → long at 515
    //   after: n 33, Σd 11, Σd² 5,861 → mean 550.3333, var 177.6061 − 0.1111 = 177.4949, std 13.3227
    // #33 510: z = −40.3333 / 13.3227 = −3.027: hold
    //   after: n 34, Σd −29, Σd² 7,461 → mean 549.1471, var 219.4412 − 0.7275 = 218.7137, std 14.7890
    // #34 545: z = (545 − 549.1471) / 14.7890 = −0.280 ≥ −0.5 → exit; gross (545 − 515) × 100 = 3,000
    //   after: n 35, Σd −34, Σd² 7,486 → mean 549.0286, var 213.8857 − 0.9437 = 212.9420, std 14.5925
    // #35 580: z = (580 − 549.0286) / 14.5925 = +2.122 → short at 580
    // #36 590, #37 600, #38 595: z +2.63, +2.99, +2.38 (means 549.89, 550.97, 552.26): hold
    // end of data: closed at 595; gross (580 − 595) × 100 = −1,500
    expect(
      result.trades.map((t) => [t.side, t.entrySpread, t.exitSpread, t.grossInr, t.netInr]),
    ).toEqual([
      ["short", 590, 556, 3400, 1600.9], // 3,400 − 1,799.10
      ["long", 515, 545, 3000, 1200.9], // 3,000 − 1,799.10
      ["short", 580, 595, -1500, -3299.1], // −1,500 − 1,799.10
    ]);
    const [first, second, third] = result.trades;
    expect(first?.entryZ).toBeCloseTo(4, 9);
    expect(first?.exitZ).toBeCloseTo(0.3888, 3);
    expect(second?.entryZ).toBeCloseTo(-3.0491, 3);
    expect(second?.exitZ).toBeCloseTo(-0.2804, 3);
    expect(third?.entryZ).toBeCloseTo(2.1224, 3);
    expect(third?.exitZ).toBeUndefined();
    expect([first?.entryTime, first?.exitTime, third?.exitTime]).toEqual([
      T0 + 30 * MIN,
      T0 + 31 * MIN,
      T0 + 38 * MIN,
    ]);
    // totals: gross 3,400 + 3,000 − 1,500 = 4,900; costs 3 × 1,799.10 = 5,397.30; net −497.30
    // equity 1,600.90 → 2,801.80 → −497.30: drawdown from the 2,801.80 peak = 3,299.10
    expect(result).toMatchObject({
      closes: 39,
      grossInr: 4900,
      costsInr: 5397.3,
      netInr: -497.3,
      maxDrawdownInr: 3299.1,
    });
  });

  it("does not trade before minCloses closes, and uses the given thresholds", () => {
    // With 31 closes required, #30 (n = 30) cannot open; #31 556 has z +0.39: nothing to do.
    expect(
      backtestZScore(candles(SAMPLE.slice(0, 32)), 100, COSTS, { minCloses: 31 }).trades,
    ).toEqual([]);
    // entry at |z| ≥ 5: z +4.00 at #30 is not enough; nothing in the sample reaches 5.
    expect(backtestZScore(candles(SAMPLE), 100, COSTS, { entryZ: 5 }).trades).toEqual([]);
  });

  it("exits a position when the spread jumps past the mean, not only within exitZ", () => {
    // short at 590 (z +4); the next close 500: z = (500 − 551.2903) / 12.1129 = −4.234 ≤ 0.5 → exit.
    // gross (590 − 500) × 100 = 9,000; no costs given: net 9,000. No drawdown.
    const result = backtestZScore(candles([...BASE, 590, 500]), 100, 0);
    expect(result.trades.map((t) => [t.side, t.exitSpread, t.netInr])).toEqual([
      ["short", 500, 9000],
    ]);
    expect(result.trades[0]?.exitZ).toBeCloseTo(-4.2343, 3);
    expect(result.maxDrawdownInr).toBe(0);
  });

  it("keeps the later of two candles with one open time, whatever the input order", () => {
    const input = candles([...BASE, 590, 556]).reverse();
    input.push({ timestamp: T0 + 31 * MIN, close: 600 }); // replaces 556: still short at 590, then end
    const result = backtestZScore(input, 100, 0);
    // 600 has z = (600 − 551.2903) / 12.1129 = +4.02: hold, closed at the end; (590 − 600) × 100
    expect(result.trades.map((t) => [t.side, t.exitSpread, t.grossInr, t.exitZ])).toEqual([
      ["short", 600, -1000, undefined],
    ]);
    expect(result).toMatchObject({ closes: 32, netInr: -1000, maxDrawdownInr: 1000 });
  });

  it("is empty for no candles", () => {
    expect(backtestZScore([], 100, COSTS)).toEqual({
      trades: [],
      closes: 0,
      grossInr: 0,
      costsInr: 0,
      netInr: 0,
      maxDrawdownInr: 0,
    });
  });
});
