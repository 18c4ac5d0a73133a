import { describe, expect, it } from "vitest";
import {
  contractMoved,
  contractMoveText,
  daysHeld,
  exitSideOf,
  grossInr,
  markPosition,
  markSymbolOf,
  realisedInr,
  summariseClosed,
} from "./position.ts";

const DAY = 86_400_000;
const buy = { side: "BUY" as const, lots: 2, entry: 60.5, units: 100, openedAt: 0 };

describe("a position's mark", () => {
  it("is the exit side's executable value", () => {
    expect(exitSideOf("BUY")).toBe("SELL");
    expect(markSymbolOf({ spread: "GC", side: "BUY" })).toBe("GC_SELL");
    expect(markSymbolOf({ spread: "SP7", side: "SELL" })).toBe("SP7_BUY");
  });

  it("gains when the spread rises for a BUY and falls for a SELL, to paise", () => {
    expect(grossInr("BUY", 60.5, 70.25, 100, 2)).toBe(1950);
    expect(grossInr("SELL", 60.5, 70.25, 100, 2)).toBe(-1950);
    // 0.1 + 0.2 style noise is rounded away: 3 × 0.1 × 100 is ₹30, not 30.000000000000004.
    expect(grossInr("BUY", 0, 0.3, 100, 1)).toBe(30);
  });

  it("nets costs, per lot and in total, with return on margin and its annual rate", () => {
    const m = markPosition(buy, {
      mark: 70.25,
      costsPerLotInr: 150.5,
      marginInr: 20_000,
      dayOpenMark: 65,
      now: 10 * DAY,
    });
    expect(m).toEqual({
      mark: 70.25,
      grossInr: 1950,
      costsInr: 301,
      netInr: 1649,
      netPerLotInr: 824.5,
      changeTodayInr: 1050,
      returnOnMargin: 1649 / 20_000,
      returnOnMarginAnnualised: ((1649 / 20_000) * 365) / 10,
      daysHeld: 10,
    });
  });

  it("does not annualise a position held less than a week", () => {
    const young = markPosition(buy, {
      mark: 70.25,
      costsPerLotInr: 0,
      marginInr: 1950,
      now: DAY / 4,
    });
    expect(young.returnOnMargin).toBe(1);
    expect(young.returnOnMarginAnnualised).toBeNull();
    const sixDays = markPosition(buy, {
      mark: 70.25,
      costsPerLotInr: 0,
      marginInr: 1950,
      now: 6.99 * DAY,
    });
    expect(sixDays.returnOnMarginAnnualised).toBeNull();
    const week = markPosition(buy, {
      mark: 70.25,
      costsPerLotInr: 0,
      marginInr: 1950,
      now: 7 * DAY,
    });
    expect(week.returnOnMarginAnnualised).toBeCloseTo(365 / 7, 10);
  });

  it("leaves a figure null when an input is missing, never NaN", () => {
    const m = markPosition(buy, { mark: Number.NaN, costsPerLotInr: 10, marginInr: 0, now: 0 });
    expect(m.mark).toBeNull();
    expect(m.netInr).toBeNull();
    expect(m.returnOnMargin).toBeNull();
    const noMargin = markPosition(buy, { mark: 61, costsPerLotInr: 10, marginInr: 0, now: 0 });
    expect(noMargin.netInr).toBe(80);
    expect(noMargin.returnOnMargin).toBeNull();
    expect(noMargin.changeTodayInr).toBeNull();
  });

  it("counts days held from the entry, never below zero", () => {
    expect(daysHeld(DAY, DAY * 2.5)).toBe(1.5);
    expect(daysHeld(DAY, 0)).toBe(0);
  });
});

describe("closed trades", () => {
  it("realise the gross less the closed lots' costs", () => {
    expect(realisedInr("SELL", 80, 70, 100, 3, 100)).toBe(2700);
  });

  it("summarise net, win rate, average holding time, best and worst", () => {
    const s = summariseClosed([
      { realisedInr: 1000.1, openedAt: 0, closedAt: 2 * DAY },
      { realisedInr: -400.2, openedAt: DAY, closedAt: 2 * DAY },
      { realisedInr: 0, openedAt: 0, closedAt: 3 * DAY },
    ]);
    expect(s).toEqual({
      trades: 3,
      netInr: 599.9,
      winRate: 1 / 3,
      averageHoldingMs: 2 * DAY,
      best: 1000.1,
      worst: -400.2,
    });
    expect(summariseClosed([]).winRate).toBeNull();
  });
});

describe("a leg's contract after the feed rolls", () => {
  const legs = {
    m: { instrument: "GOLD", contract: "GOLD26DECFUT" },
    c: { instrument: "GC", contract: "GCG27" },
    fx: { instrument: "USDINR" },
  };

  it("is the first leg whose quotes name another contract than the one held", () => {
    const now = { GOLD: "GOLD26FEBFUT", GC: "GCG27", USDINR: "X" } as Record<string, string>;
    const move = contractMoved(legs, (key) => now[key]);
    expect(move).toEqual({
      leg: "m",
      instrument: "GOLD",
      from: "GOLD26DECFUT",
      to: "GOLD26FEBFUT",
    });
    expect(contractMoveText(move as never)).toBe(
      "GOLD now quotes GOLD26FEBFUT, not the GOLD26DECFUT held: roll the position, or close it at a typed price",
    );
  });

  it("is nothing while every known contract is the one held, or a contract is unknown", () => {
    expect(contractMoved(legs, (key) => ({ GOLD: "GOLD26DECFUT" })[key])).toBeUndefined();
    expect(contractMoved(legs, () => undefined)).toBeUndefined();
  });
});
