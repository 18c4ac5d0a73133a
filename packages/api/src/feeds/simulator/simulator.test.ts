import {
  applyQuote,
  CHART_SYMBOLS,
  type ChartSymbol,
  calculateAll,
  chartSymbolValues,
  defaultDuties,
  emptyPrices,
  INSTRUMENTS,
  instrument,
  parity,
  type Quote,
  SPREAD_SYMBOLS,
} from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import { BACKFILL_DAYS } from "../../history/backfill.ts";
import { SimulatorModel } from "./model.ts";
import { GIFT_PREMIUM, LEGS, MCX_DEVIATIONS, MINUTES_PER_YEAR, SPOT_BASIS } from "./params.ts";
import { seededRandom } from "./random.ts";
import { createSimulatorFeed } from "./simulator.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const T = Date.UTC(2026, 10, 23, 4, 0);
const duties = defaultDuties();

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
};

/** The model's levels once a minute over `days` ending at T. */
function minuteLevels(days: number, seed = 11) {
  const model = new SimulatorModel(seededRandom(seed), duties, { seed });
  const levels = [];
  for (let ts = T - days * DAY; ts <= T; ts += MINUTE) {
    model.moveTo(ts);
    levels.push(model.levels());
  }
  return levels;
}

/** Annualised volatility of a series sampled once a minute, around the clock. */
function annualised(series: number[]): number {
  const returns = series.slice(1).map((x, i) => Math.log(x / (series[i] as number)));
  return Math.sqrt(mean(returns.map((r) => r * r)) * MINUTES_PER_YEAR);
}

describe("simulator model", () => {
  const month = minuteLevels(BACKFILL_DAYS);

  it("moves each leg with its documented volatility (±15 %) over a month", () => {
    const legs = {
      GC: month.map((l) => l.cme.GC),
      SI: month.map((l) => l.cme.SI),
      HG: month.map((l) => l.cme.HG),
      NG: month.map((l) => l.cme.NG),
      CL: month.map((l) => l.cme.CL),
      USDINR: month.map((l) => l.usdinr),
      NIFTY: month.map((l) => l.nifty),
    };
    for (const [id, series] of Object.entries(legs)) {
      const documented = LEGS[id as keyof typeof LEGS].annualVol;
      expect(annualised(series) / documented, id).toBeGreaterThan(0.85);
      expect(annualised(series) / documented, id).toBeLessThan(1.15);
    }
  });

  it("moves gold and silver together, gold and crude barely", () => {
    const returns = (xs: number[]) => xs.slice(1).map((x, i) => Math.log(x / (xs[i] as number)));
    const correlation = (a: number[], b: number[]) => {
      const ma = mean(a);
      const mb = mean(b);
      const cov = mean(a.map((x, i) => (x - ma) * ((b[i] as number) - mb)));
      return cov / (sd(a) * sd(b));
    };
    const gold = returns(month.map((l) => l.cme.GC));
    expect(correlation(gold, returns(month.map((l) => l.cme.SI)))).toBeGreaterThan(0.5);
    expect(Math.abs(correlation(gold, returns(month.map((l) => l.cme.CL))))).toBeLessThan(0.15);
  });

  it("keeps MCX around parity + its basis, spot around future − basis, GIFT around NIFTY + premium", () => {
    const quarter = minuteLevels(90, 12);
    for (const inst of INSTRUMENTS) {
      const p = MCX_DEVIATIONS[inst.id];
      const deviation = quarter.map(
        (l) =>
          l.mcx[inst.id] - parity(l.cme[inst.id], instrument(inst.id), l.usdinr, duties[inst.id]),
      );
      expect(Math.abs(mean(deviation) - p.mean), inst.id).toBeLessThan(0.25 * p.sd);
      expect(sd(deviation) / p.sd, inst.id).toBeGreaterThan(0.75);
      expect(sd(deviation) / p.sd, inst.id).toBeLessThan(1.25);
    }
    const basis = quarter.map((l) => l.cme.GC - l.spot.XAUUSD);
    expect(Math.abs(mean(basis) - SPOT_BASIS.XAU.mean)).toBeLessThan(0.25 * SPOT_BASIS.XAU.sd);
    const premium = quarter.map((l) => l.giftNifty - l.nifty);
    expect(Math.abs(mean(premium) - GIFT_PREMIUM.mean)).toBeLessThan(0.25 * GIFT_PREMIUM.sd);
  });

  it("quotes books with bid below ask, in exchange ticks", () => {
    const model = new SimulatorModel(seededRandom(3), duties, { start: T });
    for (let ts = T; ts < T + 3_600_000; ts += 1000) {
      model.moveTo(ts);
      for (const inst of INSTRUMENTS) {
        for (const q of [model.cmeQuote(inst.id, ts), model.mcxQuote(inst.id, ts)]) {
          expect(q.bid as number).toBeLessThan(q.ask as number);
        }
      }
    }
    const gold = model.mcxQuote("GC", T);
    expect(Number.isInteger(gold.bid)).toBe(true);
  });

  it("is reproducible from its seed", () => {
    const run = (seed: number) => {
      const model = new SimulatorModel(seededRandom(seed), duties, { seed, start: T });
      for (let s = 1; s <= 60; s++) model.step(1);
      return [model.cmeQuote("GC", T), model.mcxQuote("CL", T), model.fxQuote(T)];
    };
    expect(run(7)).toEqual(run(7));
    expect(run(8)).not.toEqual(run(7));
  });
});

describe("simulator history", () => {
  // The model's property, read from the values a backfill makes its minutes of (backfill.ts);
  // how they are stored is backfill.test.ts's, and a real first start's simulator-history.test.ts.
  it("crosses zero on every BUY and SELL spread within 30 days, and live starts where history ends", () => {
    let clock = T - BACKFILL_DAYS * DAY;
    const feed = createSimulatorFeed({ duties, seed: 21, now: () => clock });
    const prices = emptyPrices();
    const minutes = new Map<ChartSymbol, Set<number>>(CHART_SYMBOLS.map((s) => [s, new Set()]));
    const last = new Map<ChartSymbol, number>();
    const signs = new Map<ChartSymbol, Set<number>>(CHART_SYMBOLS.map((s) => [s, new Set()]));
    for (const quotes of feed.history?.(clock, T) ?? []) {
      for (const q of quotes) applyQuote(prices, q);
      const ts = quotes[0]?.ts;
      if (ts === undefined) continue;
      const values = chartSymbolValues(calculateAll(prices, duties), prices);
      for (const symbol of CHART_SYMBOLS) {
        const value = values[symbol];
        if (value === undefined) continue;
        minutes.get(symbol)?.add(Math.floor(ts / MINUTE));
        signs.get(symbol)?.add(Math.sign(value));
        last.set(symbol, value);
      }
    }
    for (const symbol of SPREAD_SYMBOLS) {
      expect(minutes.get(symbol)?.size, symbol).toBeGreaterThan(BACKFILL_DAYS * 1440 - 2);
      expect(signs.get(symbol)?.has(1), `${symbol} above zero`).toBe(true);
      expect(signs.get(symbol)?.has(-1), `${symbol} below zero`).toBe(true);
    }

    clock = T;
    const quotes: Quote[] = [];
    feed.start((q) => quotes.push(q));
    feed.stop();
    const live = emptyPrices();
    for (const q of quotes) applyQuote(live, q);
    const values = chartSymbolValues(calculateAll(live, duties), live);
    for (const symbol of CHART_SYMBOLS) {
      expect(
        Math.abs((values[symbol] as number) - (last.get(symbol) as number)),
        symbol,
      ).toBeLessThan(0.5 * typicalDeviation(symbol));
    }
  });
});

/** How far a chart symbol typically strays from its mean: its OU's stationary sd. */
function typicalDeviation(symbol: ChartSymbol): number {
  if (symbol === "XAU_SPOT") return SPOT_BASIS.XAU.sd;
  if (symbol === "XAG_SPOT") return SPOT_BASIS.XAG.sd;
  if (symbol === "NIFTY") return GIFT_PREMIUM.sd;
  const id = symbol.split("_")[0] as keyof typeof MCX_DEVIATIONS;
  return MCX_DEVIATIONS[id].sd;
}
