import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  axisValues,
  type BacktestMinute,
  backtestSpread,
  backtestTradesCsv,
  joinSides,
  kthSmallest,
  ruleProblem,
  sweepBacktest,
  typicalHalfSpread,
} from "./spread-backtest.ts";

const T0 = Date.UTC(2026, 10, 20, 4, 0); // 09:30 IST
const min = (i: number) => T0 + i * 60_000;
/** Minutes with a BUY side one point above the SELL side. */
const series = (sells: readonly number[]): BacktestMinute[] =>
  sells.map((sell, i) => ({ timestamp: min(i), buy: sell + 1, sell }));
const options = { units: 100, costsPerLotInr: 50 };

describe("backtestSpread on the spread", () => {
  it("sells on the SELL side above the threshold and buys back on the BUY side", () => {
    // SELL: 500 550 610 (sell at 610) 400 299 (BUY 300 ≤ 300: buy back at 300)
    const result = backtestSpread(
      series([500, 550, 610, 400, 299]),
      { metric: "spread", sellAbove: 600, exitShortAt: 300, lots: 1 },
      options,
    );
    expect(result.trades).toEqual([
      {
        side: "short",
        entryAt: min(2),
        entry: 610,
        exitAt: min(4),
        exit: 300,
        reason: "rule",
        grossInr: 31_000,
        costsInr: 50,
        netInr: 30_950,
      },
    ]);
    expect(result.summary).toMatchObject({ trades: 1, wins: 1, winRate: 1, netInr: 30_950 });
    expect(result.equity).toEqual([
      [min(0), 0],
      [min(4), 30_950],
    ]);
  });

  it("buys on the BUY side below the threshold and sells on the SELL side, lots multiplying", () => {
    // BUY: 101 99 (buy at 99) 120 131; SELL 130 ≥ 130 at minute 3
    const result = backtestSpread(
      series([100, 98, 119, 130]),
      { metric: "spread", buyBelow: 100, exitLongAt: 130, lots: 2 },
      options,
    );
    expect(result.trades.map((t) => [t.side, t.entry, t.exit, t.grossInr, t.costsInr])).toEqual([
      ["long", 99, 130, 6_200, 100],
    ]);
  });

  it("takes at most one decision a minute: no re-entry in the exit's minute", () => {
    // Minute 1 both exits the short (BUY 301 ≤ 301) and would re-enter (SELL 700 ≥ 600)? Only
    // if BUY ≤ 301 while SELL ≥ 600 — impossible with BUY above SELL, so use a target instead.
    const result = backtestSpread(
      series([610, 650, 700, 500]),
      { metric: "spread", sellAbove: 600, exitShortAt: 0, stopInr: 2_000, lots: 1 },
      options,
    );
    // 610 → BUY 651 loses 4,100 + 50: stop at minute 1; minute 1's SELL 650 may not re-enter;
    // minute 2 enters at 700, closed at the end (BUY 501): +19,900.
    expect(result.trades.map((t) => [t.entryAt, t.exitAt, t.reason])).toEqual([
      [min(0), min(1), "stop"],
      [min(2), min(3), "end"],
    ]);
  });

  it("closes at a net ₹ target, after the maximum holding time, and waits out a cooldown", () => {
    const sells = [610, 600, 590, 580, 620, 630, 640, 650];
    const target = backtestSpread(
      series(sells),
      { metric: "spread", sellAbove: 605, targetInr: 1_500, lots: 1 },
      options,
    );
    // short 610; BUY 591 at minute 2: gross 1,900, net 1,850 ≥ 1,500
    expect(target.trades[0]).toMatchObject({ exitAt: min(2), reason: "target", netInr: 1_850 });
    const timed = backtestSpread(
      series(sells),
      { metric: "spread", sellAbove: 605, maxHoldMinutes: 3, cooldownMinutes: 2, lots: 1 },
      options,
    );
    // in at 0, out by time at 3; cooldown to minute 5: enters at 5 (630), not at 4 (620)
    expect(timed.trades.map((t) => [t.entryAt, t.exitAt, t.reason])).toEqual([
      [min(0), min(3), "time"],
      [min(5), min(7), "end"],
    ]);
  });

  it("charges slippage ticks on both fills, against the trader", () => {
    const result = backtestSpread(
      series([610, 299]),
      { metric: "spread", sellAbove: 600, exitShortAt: 300, lots: 1, slippageTicks: 2 },
      { ...options, tickPoints: 0.5 },
    );
    expect(result.trades[0]).toMatchObject({ entry: 609, exit: 301, grossInr: 30_800 });
  });

  it("takes the typical bid-ask as the median half-spread: what sorting them would give", () => {
    // Few distinct values (ties), sorted and reversed runs, and a side missing now and then.
    const price = fc.oneof(
      fc.integer({ min: 0, max: 8 }).map((v) => v / 4),
      fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((v) => v + 0),
    );
    const side = fc.oneof(
      { weight: 6, arbitrary: price },
      { weight: 1, arbitrary: fc.constant(NaN) },
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(side, side), { maxLength: 300, size: "max" }),
        fc.constantFrom("shuffled", "ascending", "descending"),
        (pairs, order) => {
          const halves = pairs.map(([b, s]) => (b - s) / 2).filter(Number.isFinite);
          if (order !== "shuffled") {
            halves.sort((a, b) => a - b);
            if (order === "descending") halves.reverse();
          }
          const sorted = [...halves].sort((a, b) => a - b);
          const k = Math.floor((halves.length - 1) / 2);
          // −0 and 0 are one half-spread (a difference can underflow to either).
          if (halves.length > 0)
            expect(kthSmallest(Float64Array.from(halves), k) + 0).toBe((sorted[k] as number) + 0);
          const columns = {
            times: Float64Array.from(pairs, (_, i) => i * 60_000),
            buy: Float64Array.from(pairs, ([b]) => b),
            sell: Float64Array.from(pairs, ([, s]) => s),
          };
          const median = [...pairs.map(([b, s]) => (b - s) / 2).filter(Number.isFinite)].sort(
            (a, b) => a - b,
          );
          expect(typicalHalfSpread(columns, 0.5) + 0).toBe(
            median.length === 0 ? 0.5 : (median[Math.floor((median.length - 1) / 2)] as number) + 0,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("fills mid-only minutes at the mid ± half the typical bid-ask and counts them", () => {
    const minutes: BacktestMinute[] = [
      { timestamp: min(0), mid: 610 },
      { timestamp: min(1), buy: 300, sell: 296 },
    ];
    expect(typicalHalfSpread(minutes, 0.5)).toBe(2);
    expect(typicalHalfSpread([{ timestamp: 0, mid: 1 }], 0.5)).toBe(0.5);
    const result = backtestSpread(
      minutes,
      { metric: "spread", sellAbove: 600, exitShortAt: 300, lots: 1 },
      { ...options, halfSpread: 2 },
    );
    expect(result.trades[0]).toMatchObject({ entry: 608, exit: 300 });
    expect(result.summary.estimatedFills).toBe(1);
  });

  it("closes a trade at the old contracts' last minute on a roll and re-enters on the new ones", () => {
    const result = backtestSpread(
      series([610, 620, 640, 650]),
      { metric: "spread", sellAbove: 600, exitShortAt: 300, lots: 1 },
      { ...options, rolls: [min(2) - 1] },
    );
    expect(result.trades.map((t) => [t.entryAt, t.exitAt, t.exit, t.reason, t.costsInr])).toEqual([
      [min(0), min(1), 621, "roll", 50],
      [min(2), min(3), 651, "end", 50],
    ]);
  });

  it("sums the trades: drawdown, holding, exposure, return on margin, daily Sharpe", () => {
    const day = 86_400_000;
    const minutes: BacktestMinute[] = [
      // day 1: short 610 → 500 (+10,950); day 2: short 610 → 650 (−4,050); day 3: flat
      { timestamp: T0, buy: 611, sell: 610 },
      { timestamp: T0 + 60_000, buy: 500, sell: 499 },
      { timestamp: T0 + day, buy: 611, sell: 610 },
      { timestamp: T0 + day + 60_000, buy: 650, sell: 649 },
      { timestamp: T0 + 2 * day, buy: 1, sell: 0 },
    ];
    const { summary } = backtestSpread(
      minutes,
      { metric: "spread", sellAbove: 600, exitShortAt: 500, stopInr: 3_000, lots: 1 },
      { ...options, marginPerLotInr: 100_000 },
    );
    expect(summary).toMatchObject({
      trades: 2,
      wins: 1,
      winRate: 0.5,
      netInr: 6_900,
      grossInr: 7_000,
      costsInr: 100,
      maxDrawdownInr: 4_050,
      averageHoldingMs: 60_000,
      exposure: 2 / 5,
      returnOnMargin: 0.069,
      estimatedFills: 0,
    });
    // days 10,950, −4,050, 0: mean 2,300, sample std 7,777.5…
    const mean = 2_300;
    const std = Math.sqrt(((10_950 - mean) ** 2 + (-4_050 - mean) ** 2 + mean ** 2) / 2);
    expect(summary.sharpeDaily).toBeCloseTo((mean / std) * Math.sqrt(252), 10);
  });

  it("writes the trades as CSV", () => {
    const result = backtestSpread(
      series([610, 299]),
      { metric: "spread", sellAbove: 600, exitShortAt: 300, lots: 1 },
      options,
    );
    expect(backtestTradesCsv(result.trades).split("\n")).toEqual([
      "side,entry_at,entry_at_iso,entry,exit_at,exit_at_iso,exit,reason,gross_inr,costs_inr,net_inr",
      `short,${min(0)},2026-11-20T04:00:00.000Z,610,${min(1)},2026-11-20T04:01:00.000Z,300,rule,31000.00,50.00,30950.00`,
      "",
    ]);
  });
});

describe("backtestSpread on z and percentile", () => {
  // 30 closes alternating 0 and 10: mean 5, population std 5.
  const warmup = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 0 : 10));

  it("judges minute t against the closes before it, not with its own", () => {
    // SELL 20 after the warm-up: z = (20 − 5) / 5 = 3 against the window before it; with 20 in
    // the window it would be (20 − 5.48) / 5.59 ≈ 2.6 and not reach 2.8.
    const minutes = warmup.map((v, i) => ({ timestamp: min(i), buy: v, sell: v }));
    minutes.push({ timestamp: min(30), buy: 20, sell: 20 });
    const result = backtestSpread(minutes, { metric: "z", sellAbove: 2.8, lots: 1 }, options);
    expect(result.trades.map((t) => [t.entryAt, t.entry])).toEqual([[min(30), 20]]);
    // Percentile: 20 is above every earlier close (100); with itself it is still 100, but 5 sits
    // at 50 against the earlier closes (15 of 30 at or below) and at 16/31 with itself.
    const low = warmup.map((v, i) => ({ timestamp: min(i), buy: v, sell: v }));
    low.push({ timestamp: min(30), buy: 5, sell: 5 });
    const p = backtestSpread(low, { metric: "percentile", buyBelow: 50, lots: 1 }, options);
    expect(p.trades.map((t) => t.entryAt)).toEqual([min(30)]);
  });

  it("waits for minCloses before judging a z", () => {
    const minutes = [...warmup, 20].map((v, i) => ({ timestamp: min(i), buy: v, sell: v }));
    const result = backtestSpread(
      minutes,
      { metric: "z", sellAbove: 2.8, lots: 1 },
      { ...options, minCloses: 31 },
    );
    expect(result.trades).toEqual([]);
  });

  it("no look-ahead: changing the future moves no decision before it", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 60, maxLength: 160 }),
        fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 60 }),
        fc.constantFrom("z", "percentile", "spread") as fc.Arbitrary<"z" | "percentile" | "spread">,
        (past, future, metric) => {
          const build = (values: number[]) =>
            values.map((v, i) => ({ timestamp: min(i), buy: v + 1, sell: v }));
          const thresholds =
            metric === "z"
              ? { sellAbove: 1, buyBelow: -1, exitShortAt: 0, exitLongAt: 0 }
              : metric === "percentile"
                ? { sellAbove: 80, buyBelow: 20, exitShortAt: 50, exitLongAt: 50 }
                : { sellAbove: 20, buyBelow: -20, exitShortAt: 0, exitLongAt: 0 };
          const rule = { metric, ...thresholds, lots: 1 };
          const opts = { ...options, minCloses: 10 };
          const a = backtestSpread(build(past), rule, opts).trades;
          const b = backtestSpread(build([...past, ...future]), rule, opts).trades;
          const cut = min(past.length - 1);
          // Every trade closed before the last past minute is the same; "end" ones differ.
          const settled = (ts: typeof a) => ts.filter((t) => t.exitAt < cut && t.reason !== "end");
          expect(settled(b)).toEqual(settled(a));
          const entries = (ts: typeof a) =>
            ts.filter((t) => t.entryAt <= cut).map((t) => t.entryAt);
          expect(entries(b)).toEqual(entries(a));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("backtestSpread on columns", () => {
  it("joins the sides on their times and runs as on the same minutes as objects", () => {
    const joined = joinSides(
      { times: [min(0), min(1), min(2), min(4)], closes: [611, 612, 290, 620] },
      { times: [min(1), min(2), min(3), min(4)], closes: [610, 289, 1, 619] },
    );
    expect([...joined.times]).toEqual([min(1), min(2), min(4)]);
    expect([...joined.buy]).toEqual([612, 290, 620]);
    expect([...joined.sell]).toEqual([610, 289, 619]);
    // Mid-only minutes first (NaN sides), then the recorded ones.
    const columns = {
      times: [min(-2), min(-1), ...joined.times],
      buy: [Number.NaN, Number.NaN, ...joined.buy],
      sell: [Number.NaN, Number.NaN, ...joined.sell],
      mid: [605, 299, Number.NaN, Number.NaN, Number.NaN],
    };
    const minutes: BacktestMinute[] = [
      { timestamp: min(-2), mid: 605 },
      { timestamp: min(-1), mid: 299 },
      ...[...joined.times].map((t, i) => ({
        timestamp: t,
        buy: joined.buy[i] as number,
        sell: joined.sell[i] as number,
      })),
    ];
    const half = typicalHalfSpread(columns, 5);
    expect(half).toBe(typicalHalfSpread(minutes, 5));
    expect(half).toBe(0.5);
    const rule = { metric: "spread" as const, sellAbove: 600, exitShortAt: 300, lots: 1 };
    const fromColumns = backtestSpread(columns, rule, { ...options, halfSpread: half });
    expect(fromColumns).toEqual(backtestSpread(minutes, rule, { ...options, halfSpread: half }));
    expect(fromColumns.trades.map((t) => [t.entryAt, t.exitAt])).toEqual([
      [min(-2), min(-1)],
      [min(1), min(2)],
      [min(4), min(4)],
    ]);
    expect(fromColumns.summary.estimatedFills).toBe(2);
    // Columns out of order are ordered as minutes are, the later of a repeated time kept.
    const shuffled = { times: [min(1), min(0), min(1)], buy: [5, 1, 9], sell: [4, 0, 8] };
    const ordered = backtestSpread(shuffled, { metric: "spread", sellAbove: 7, lots: 1 }, options);
    expect(ordered.trades.map((t) => t.entry)).toEqual([8]);
  });
});

describe("ruleProblem", () => {
  it("names the field of a rule that cannot run", () => {
    expect(ruleProblem({ metric: "spread", lots: 1 })?.[0]).toBe("sellAbove");
    expect(ruleProblem({ metric: "z", sellAbove: 1, buyBelow: 2, lots: 1 })?.[0]).toBe("buyBelow");
    expect(ruleProblem({ metric: "z", sellAbove: 2, exitShortAt: 2, lots: 1 })?.[0]).toBe(
      "exitShortAt",
    );
    expect(ruleProblem({ metric: "z", buyBelow: -2, exitLongAt: -3, lots: 1 })?.[0]).toBe(
      "exitLongAt",
    );
    expect(ruleProblem({ metric: "percentile", sellAbove: 120, lots: 1 })?.[0]).toBe("sellAbove");
    expect(ruleProblem({ metric: "z", sellAbove: 2, exitShortAt: 0, lots: 1 })).toBeUndefined();
  });
});

describe("sweepBacktest", () => {
  it("runs every valid cell on the first 70 % and, warmed, on the last 30 %", () => {
    expect(axisValues({ from: 0.5, to: 1.5, step: 0.5 })).toEqual([0.5, 1, 1.5]);
    expect(axisValues({ from: 0.1, to: 0.3, step: 0.1 })).toEqual([0.1, 0.2, 0.3]);
    // 10 minutes: in sample 0..6, out of sample 7..9
    const sells = [610, 299, 610, 299, 610, 299, 610, 700, 299, 610];
    const cells = sweepBacktest(series(sells), { metric: "spread", lots: 1 }, options, {
      x: { field: "sellAbove", from: 600, to: 700, step: 100 },
      y: { field: "exitShortAt", from: 300, to: 600, step: 300 },
    });
    // (600, 600) and (700, 600)... exitShortAt 600 < 700 is valid; 600 ≥ 600 is not.
    expect(cells.map((c) => [c.x, c.y])).toEqual([
      [600, 300],
      [700, 300],
      [700, 600],
    ]);
    const first = cells[0] as (typeof cells)[number];
    // in sample: three round trips 610 → 300, the fourth entry at minute 6 ends with the data
    expect(first.inSample.trades).toBe(4);
    // out of sample: enters at 7 (700), out at 8 (300), enters at 9, ends
    expect(first.outOfSample.trades).toBe(2);
  });
});
