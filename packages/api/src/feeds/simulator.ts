import { type Duties, INSTRUMENTS, type Quote } from "@spreadwatch/core";
import type { Feed } from "./feed.ts";
import { seededRandom } from "./random.ts";
import { SimulatorModel } from "./simulator-model.ts";

const STEP_MS = 50;
/** Backfill resolution: four samples a minute give each 1-minute candle a real high and low. */
const HISTORY_STEP_MS = 15_000;
/** Each of the 15 instruments quotes on a step with this chance: about 4 quotes a second each. */
const QUOTE_CHANCE_PER_STEP = 0.2;

export interface SimulatorOptions {
  duties: Duties;
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

/** DESIGN §4's default feed: correlated random walks, MCX drifting around parity. */
export function createSimulatorFeed(options: SimulatorOptions): Feed {
  const random = seededRandom(options.seed ?? Date.now());
  const now = options.now ?? Date.now;
  const model = new SimulatorModel(random, options.duties);
  const makers = quoteMakers(model);
  let timer: NodeJS.Timeout | undefined;

  return {
    name: "simulator",
    ...(options.silenceMs !== undefined && { staleAfterMs: options.silenceMs }),
    start(onQuote) {
      // Every instrument quotes at once on start so the dashboard is complete from the first second.
      const ts = now();
      for (const make of makers) onQuote(make(ts));
      timer = setInterval(() => {
        model.step(STEP_MS / 1000);
        const stepTs = now();
        for (const make of makers) if (random() < QUOTE_CHANCE_PER_STEP) onQuote(make(stepTs));
      }, STEP_MS);
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
    *history(from, to) {
      for (let ts = from; ts < to; ts += HISTORY_STEP_MS) {
        model.step(HISTORY_STEP_MS / 1000);
        yield makers.map((make) => make(ts));
      }
    },
  };
}
