import {
  type Duties,
  INSTRUMENTS,
  type InstrumentSpec,
  isExchange,
  isInstrumentKey,
  monthKey,
  parseInstrumentKey,
  type Quote,
} from "@spreadwatch/core";
import type { Feed } from "../feed.ts";
import { DEFAULT_SEED, SimulatorModel } from "./model.ts";
import { hashString, seededRandom } from "./random.ts";

/**
 * The live feed's step. Each step's quotes reach the stream as one message, and each message
 * renders every open dashboard: ten a second are as live as twenty to the eye, at a little over
 * half the browser's and the server's work (BENCHMARKS.md §32).
 */
export const STEP_MS = 100;
/**
 * Backfill resolution: three samples a minute give each 1-minute candle an open, a close and a
 * point between for its high and low; the minute knots themselves come from the same path as
 * live. Finer costs the first start seconds (core prices ~130,000 moments for 30 days at this).
 */
export const HISTORY_STEP_MS = 20_000;
/** Mixed into the seed of a past made while running, so its noise is not the live feed's. */
const HISTORY_STREAM = 0x2f6b_91c3;
/** Each instrument quotes on a step with this chance: about 4 quotes a second each (docs/design.md §4). */
const QUOTE_CHANCE_PER_STEP = 0.4;

export interface SimulatorOptions {
  duties: Duties;
  /** The market path's seed (DEFAULT_SEED): the same seed is the same market, start after start. */
  seed?: number;
  /** Without a quote for this long the simulator is stale (it never should be). */
  silenceMs?: number;
  now?: () => number;
}

/** Quote makers, one per built-in key (benches reuse the mix). */
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

/** One instrument in use, with its own random sequence for when it quotes and how wide. */
interface Maker {
  spec: InstrumentSpec;
  random: () => number;
  make(ts: number): Quote;
}

/** Whether a spec can be quoted at all: anything else is skipped, never a crash. */
function quotable(spec: InstrumentSpec): boolean {
  return (
    typeof spec?.key === "string" && isInstrumentKey(spec.key) && isExchange(spec.exchange ?? "")
  );
}

function sameSpec(a: InstrumentSpec, b: InstrumentSpec): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * docs/design.md §4's default feed, docs/simulator.md's model: legs with realistic volatility,
 * each MCX price mean-reverting around parity + its basis, and every other instrument in use on
 * the term structure of its root. The market is a path in time, so a start after a restart, and
 * the backfill before it, land on the same levels as the clock.
 *
 * Until `setInstruments` is called it quotes the fifteen built-in keys exactly as it always has
 * (the built-in spreads' documented statistics); from then on it quotes the instruments it was
 * given, futures with the contract and expiry the calendar names for the quote's IST day.
 */
/** The simulator starts and stops at once: no promise to wait for. */
export interface SimulatorFeed extends Feed {
  start(onQuote: (quote: Quote) => void): void;
  stop(): void;
}

export function createSimulatorFeed(options: SimulatorOptions): SimulatorFeed {
  const seed = options.seed ?? DEFAULT_SEED;
  const random = seededRandom(seed);
  const now = options.now ?? Date.now;
  const model = new SimulatorModel(random, options.duties, { seed, start: now() });
  const builtIn = quoteMakers(model);
  /** The instruments in use, once given: undefined quotes the built-in fifteen as before. */
  let makers: Map<string, Maker> | undefined;
  /** Keys added while running: they quote on the next step, not only when their chance comes. */
  let added = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  function maker(spec: InstrumentSpec): Maker {
    const own = seededRandom(seed ^ hashString(spec.key));
    const quote = model.quoterFor(spec);
    return { spec, random: own, make: (ts) => quote(ts, own) };
  }

  /** The @next specs of the near futures in use whose @next key is not in use itself. */
  function nextMonthSpecs(inUse: ReadonlyMap<string, Maker>): InstrumentSpec[] {
    const ahead: InstrumentSpec[] = [];
    for (const { spec } of inUse.values()) {
      if (spec.month !== "near") continue;
      const key = monthKey(parseInstrumentKey(spec.key).root, "next");
      if (!inUse.has(key) && quotable({ ...spec, key }))
        ahead.push({ ...spec, key, month: "next" });
    }
    return ahead;
  }

  function everyQuote(ts: number): Quote[] {
    if (!makers) return builtIn.map((make) => make(ts));
    return [...makers.values()].map((m) => m.make(ts));
  }

  function step(onQuote: (quote: Quote) => void): void {
    const ts = now();
    model.moveTo(ts);
    if (!makers) {
      for (const make of builtIn) if (random() < QUOTE_CHANCE_PER_STEP) onQuote(make(ts));
      return;
    }
    for (const [key, m] of makers) {
      if (m.random() < QUOTE_CHANCE_PER_STEP || added.has(key)) onQuote(m.make(ts));
    }
    added = new Set();
  }

  return {
    name: "simulator",
    ...(options.silenceMs !== undefined && { staleAfterMs: options.silenceMs }),
    setInstruments(instruments) {
      const next = new Map<string, Maker>();
      for (const spec of instruments) {
        if (!quotable(spec) || next.has(spec.key)) continue;
        const kept = makers?.get(spec.key);
        // An unchanged instrument keeps its maker, and with it its sequence: untouched.
        next.set(spec.key, kept && sameSpec(kept.spec, spec) ? kept : maker(spec));
      }
      for (const key of next.keys()) if (!makers?.has(key)) added.add(key);
      makers = next;
      model.retain(new Set(next.keys()));
    },
    start(onQuote) {
      // Every instrument quotes at once on start so the dashboard is complete from the first second.
      const ts = now();
      model.moveTo(ts);
      for (const quote of everyQuote(ts)) onQuote(quote);
      added = new Set();
      timer = setInterval(() => step(onQuote), STEP_MS);
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
    *history(from, to) {
      // A model of its own, as historyOf's: the first start's backfill runs beside the live
      // feed (docs/history.md, "The first start"), and moving the live model back and forth
      // between the past and now would move the live market. The path comes from the seed and
      // the time alone, so the past still meets the live quotes where they begin.
      const past = new SimulatorModel(seededRandom(seed ^ HISTORY_STREAM), options.duties, {
        seed,
        start: from,
      });
      const pastMaker = (spec: InstrumentSpec): Maker => {
        const own = seededRandom(seed ^ hashString(spec.key) ^ HISTORY_STREAM);
        const quote = past.quoterFor(spec);
        return { spec, random: own, make: (ts) => quote(ts, own) };
      };
      const inUse = makers && new Map([...makers].map(([key, m]) => [key, pastMaker(m.spec)]));
      // Each near future's next contract is quoted too (as its @next key) when that key is not
      // in use: the contract a roll inside or after the backfill moves to then has its own past
      // (docs/history.md), and the statistics after the roll have a window at once.
      const ahead = inUse ? nextMonthSpecs(inUse).map(pastMaker) : [];
      const builtInPast = quoteMakers(past);
      for (let ts = from; ts < to; ts += HISTORY_STEP_MS) {
        past.moveTo(ts);
        const quotes = inUse
          ? [...inUse.values()].map((m) => m.make(ts))
          : builtInPast.map((make) => make(ts));
        for (const m of ahead) quotes.push(m.make(ts));
        yield quotes;
      }
    },
    *historyOf(instruments, from, to) {
      // A model of its own: moving the live one back 30 days would spend its random sequence
      // and move the live market. The path is the same (its minute knots come from the seed and
      // the time alone), so the past meets the live quotes where they begin.
      const past = new SimulatorModel(seededRandom(seed ^ HISTORY_STREAM), options.duties, {
        seed,
        start: from,
      });
      const quoters = instruments.filter(quotable).map((spec) => {
        const own = seededRandom(seed ^ hashString(spec.key) ^ HISTORY_STREAM);
        const quote = past.quoterFor(spec);
        return (ts: number) => quote(ts, own);
      });
      if (quoters.length === 0) return;
      for (let ts = from; ts < to; ts += HISTORY_STEP_MS) {
        past.moveTo(ts);
        yield quoters.map((quote) => quote(ts));
      }
    },
  };
}
