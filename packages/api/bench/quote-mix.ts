import { defaultDuties, type Quote } from "@spreadwatch/core";
import { SimulatorModel } from "../src/feeds/simulator/model.ts";
import { seededRandom } from "../src/feeds/simulator/random.ts";
import { quoteMakers } from "../src/feeds/simulator/simulator.ts";

/**
 * The simulator's quote mix (hub.bench.ts): CME, MCX, spot, index and FX, 50 ms steps, each
 * instrument quoting on a step with a 20 % chance (~60 quotes/s), every one quoted once first so
 * all ten spreads exist from the start. Made up front so the benches time the server, not this.
 */
export function makeQuotes(minutes: number, start: number, seed: number): Quote[] {
  const random = seededRandom(seed);
  // The model is a path in time: without `start` it begins in 1970, where its prices are
  // nonsense (NaN and zero books), so it starts at the first quote's time and moves with it.
  const model = new SimulatorModel(random, defaultDuties(), { seed, start });
  const makers = quoteMakers(model);
  const quotes: Quote[] = [];
  for (const make of makers) quotes.push(make(start));
  for (let ts = start + 50; ts < start + minutes * 60_000; ts += 50) {
    model.moveTo(ts);
    for (const make of makers) if (random() < 0.2) quotes.push(make(ts));
  }
  return quotes;
}
