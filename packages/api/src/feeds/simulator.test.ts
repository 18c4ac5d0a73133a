import {
  applyQuote,
  calculateAll,
  defaultDuties,
  emptyPrices,
  INSTRUMENTS,
  SPREAD_SYMBOLS,
} from "@spreadwatch/core";
import { describe, expect, it } from "vitest";
import { seededRandom } from "./random.ts";
import { SimulatorModel } from "./simulator-model.ts";

/** Runs the model for `seconds` of simulated time and returns every spread seen, per symbol. */
function simulate(seconds: number, seed: number) {
  const model = new SimulatorModel(seededRandom(seed), defaultDuties());
  const prices = emptyPrices();
  const seen = new Map<string, number[]>();
  const books: Array<{ bid?: number | null; ask?: number | null }> = [];
  for (let second = 0; second < seconds; second++) {
    // The live feed steps every 50 ms; quoting once a simulated second is enough to watch spreads.
    for (let step = 0; step < 20; step++) model.step(0.05);
    const ts = second * 1000;
    const quotes = [
      model.fxQuote(ts),
      ...INSTRUMENTS.flatMap((i) => [model.cmeQuote(i.id, ts), model.mcxQuote(i.id, ts)]),
    ];
    for (const q of quotes) {
      applyQuote(prices, q);
      if (q.bid !== undefined) books.push(q);
    }
    {
      const calculations = calculateAll(prices, defaultDuties());
      for (const symbol of SPREAD_SYMBOLS) {
        const spread = calculations[symbol]?.spread;
        if (spread !== undefined) seen.set(symbol, [...(seen.get(symbol) ?? []), spread]);
      }
    }
  }
  return { seen, books, prices };
}

describe("simulator", () => {
  const { seen, books, prices } = simulate(3 * 3600, 42);

  it("quotes books with bid below ask", () => {
    expect(books.length).toBeGreaterThan(1000);
    for (const book of books) expect(book.bid as number).toBeLessThan(book.ask as number);
  });

  it("keeps levels realistic after three simulated hours", () => {
    const gold = prices.cme.GC?.bid as number;
    expect(gold).toBeGreaterThan(3000);
    expect(gold).toBeLessThan(5500);
    expect(prices.fx.USDINR?.price).toBeGreaterThan(80);
    expect(prices.fx.USDINR?.price).toBeLessThan(97);
  });

  it("lets MCX drift around parity so every BUY and SELL spread crosses zero", () => {
    for (const symbol of SPREAD_SYMBOLS) {
      const values = seen.get(symbol) ?? [];
      expect(
        values.some((v) => v > 0),
        `${symbol} above zero`,
      ).toBe(true);
      expect(
        values.some((v) => v < 0),
        `${symbol} below zero`,
      ).toBe(true);
    }
  });

  it("is reproducible from its seed", () => {
    const again = simulate(60, 7).prices;
    expect(simulate(60, 7).prices).toEqual(again);
  });
});
