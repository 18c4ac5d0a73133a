import { type Duties, INSTRUMENTS, type Quote } from "@spreadwatch/core";
import type { Feed } from "./feed.ts";
import { seededRandom } from "./random.ts";
import { DEFAULT_SEED, SimulatorModel } from "./simulator-model.ts";

const STEP_MS = 50;
/**
 * Backfill resolution: three samples a minute give each 1-minute candle an open, a close and a
 * point between for its high and low; the minute knots themselves come from the same path as
 * live. Finer costs the first start seconds (core prices ~130,000 moments for 30 days at this).
 */
export const HISTORY_STEP_MS = 20_000;
/** Each of the 15 instruments quotes on a step with this chance: about 4 quotes a second each. */
const QUOTE_CHANCE_PER_STEP = 0.2;

export interface SimulatorOptions {
  duties: Duties;
  /** The market path's seed (DEFAULT_SEED): the same seed is the same market, start after start. */
  seed?: number;
  /** Without a quote for this long the simulator is stale (it never should be). */
  silenceMs?: number;
  now?: () => number;
}

/** Quote makers, one per instrument the dashboard shows (benches reuse the mix). */
export function quoteMakers(model: SimulatorModel): Array<(ts: number) => Quote> {
  return [
    ...INSTRUMENTS.flatMap((i) => [
      (ts: number) => model.cmeQuote(i.id, ts),
      (ts: number) => model.mcxQuote(i.id, ts),
    ]),
    (ts) => model.spotQuote("XAUUSD", ts),
    (ts) => model.spotQuote("XAGUSD", ts),
    (ts) => model.indexQuote("NIFTY50", ts),
    (ts) => model.indexQuote("GIFTNIFTY", ts),
    (ts) => model.fxQuote(ts),
  ];
}

/**
 * docs/design.md §4's default feed, docs/simulator.md's model: legs with realistic volatility, each MCX
 * price mean-reverting around parity + its basis. The market is a path in time, so a start after
 * a restart, and the backfill before it, land on the same levels as the clock.
 */
export function createSimulatorFeed(options: SimulatorOptions): Feed {
  const seed = options.seed ?? DEFAULT_SEED;
  const random = seededRandom(seed);
  const now = options.now ?? Date.now;
  const model = new SimulatorModel(random, options.duties, { seed, start: now() });
  const makers = quoteMakers(model);
  let timer: NodeJS.Timeout | undefined;

  return {
    name: "simulator",
    ...(options.silenceMs !== undefined && { staleAfterMs: options.silenceMs }),
    start(onQuote) {
      // Every instrument quotes at once on start so the dashboard is complete from the first second.
      const ts = now();
      model.moveTo(ts);
      for (const make of makers) onQuote(make(ts));
      timer = setInterval(() => {
        const stepTs = now();
        model.moveTo(stepTs);
        for (const make of makers) if (random() < QUOTE_CHANCE_PER_STEP) onQuote(make(stepTs));
      }, STEP_MS);
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
    *history(from, to) {
      for (let ts = from; ts < to; ts += HISTORY_STEP_MS) {
        model.moveTo(ts);
        yield makers.map((make) => make(ts));
      }
    },
  };
}
