import { type Duties, type InstrumentId, instrument, parity, type Quote } from "@spreadwatch/core";
import { roundToTick } from "./random.ts";
import { BOOKS, PRICE_TICKS } from "./simulator-params.ts";
import { MarketPath } from "./simulator-path.ts";

/**
 * The path's seed when none is given. Fixed, not the start time: every start of the simulator
 * rejoins the same market, so a restart continues where the recorded candles stop.
 */
export const DEFAULT_SEED = 20_251_123;

/** Mid prices of every instrument at the model's time (tests and docs read the model here). */
export interface MarketLevels {
  cme: Record<InstrumentId, number>;
  mcx: Record<InstrumentId, number>;
  usdinr: number;
  nifty: number;
  giftNifty: number;
  spot: { XAUUSD: number; XAGUSD: number };
}

export interface SimulatorModelOptions {
  /** Seed of the market path (DEFAULT_SEED); book widths draw from `random`. */
  seed?: number;
  /** Where the model starts, epoch ms (default 0; the feed starts it at its clock). */
  start?: number;
}

/**
 * Quotes of every instrument from a MarketPath: CME books around the path's mids, MCX books
 * around parity(CME mid) + the MCX deviation, spot = future − basis, GIFT NIFTY = NIFTY +
 * premium, each book with a width drawn in exchange ticks.
 */
export class SimulatorModel {
  private readonly path: MarketPath;
  /** The levels at the current time: a backfill asks for them ~15 times per moment. */
  private cached: MarketLevels | undefined;

  constructor(
    private readonly random: () => number,
    private readonly duties: Duties,
    options: SimulatorModelOptions = {},
  ) {
    this.path = new MarketPath(options.seed ?? DEFAULT_SEED, random);
    this.path.moveTo(options.start ?? 0);
  }

  get time(): number {
    return this.path.time;
  }

  /** Moves the market to `ts` (epoch ms). */
  moveTo(ts: number): void {
    this.path.moveTo(ts);
    this.cached = undefined;
  }

  /** Moves the market `dt` seconds on. */
  step(dt: number): void {
    this.moveTo(this.path.time + dt * 1000);
  }

  levels(): MarketLevels {
    this.cached ??= this.computeLevels();
    return this.cached;
  }

  private computeLevels(): MarketLevels {
    const { legs, ous } = this.path.levels();
    const cme = { GC: legs.GC, SI: legs.SI, HG: legs.HG, NG: legs.NG, CL: legs.CL };
    const mcx = {} as Record<InstrumentId, number>;
    for (const id of Object.keys(cme) as InstrumentId[]) {
      mcx[id] = parity(cme[id], instrument(id), legs.USDINR, this.duties[id]) + ous[id];
    }
    return {
      cme,
      mcx,
      usdinr: legs.USDINR,
      nifty: legs.NIFTY,
      giftNifty: legs.NIFTY + ous.GIFT,
      spot: { XAUUSD: legs.GC - ous.XAU, XAGUSD: legs.SI - ous.XAG },
    };
  }

  cmeQuote(id: InstrumentId, ts: number): Quote {
    const book = BOOKS[id];
    const mid = this.levels().cme[id];
    return { source: "cme", key: id, ts, ...this.book(mid, book.cmeTick, book.cmeWidthTicks) };
  }

  mcxQuote(id: InstrumentId, ts: number): Quote {
    const book = BOOKS[id];
    const mid = this.levels().mcx[id];
    return {
      source: "mcx",
      key: instrument(id).mcxKey,
      ts,
      ...this.book(mid, book.mcxTick, book.mcxWidthTicks),
    };
  }

  spotQuote(key: "XAUUSD" | "XAGUSD", ts: number): Quote {
    const price = this.levels().spot[key];
    return { source: "spot", key, ts, price: roundToTick(price, PRICE_TICKS[key]) };
  }

  indexQuote(key: "NIFTY50" | "GIFTNIFTY", ts: number): Quote {
    const levels = this.levels();
    const price = key === "NIFTY50" ? levels.nifty : levels.giftNifty;
    return { source: "index", key, ts, price: roundToTick(price, PRICE_TICKS[key]) };
  }

  fxQuote(ts: number): Quote {
    const price = this.levels().usdinr;
    return { source: "fx", key: "USDINR", ts, price: roundToTick(price, PRICE_TICKS.USDINR) };
  }

  /** A book `width` ticks wide around `mid`, the width drawn from the instrument's usual range. */
  private book(
    mid: number,
    tick: number,
    widthTicks: readonly [number, number],
  ): { bid: number; ask: number } {
    const [min, max] = widthTicks;
    const width = min + Math.floor(this.random() * (max - min + 1));
    const bid = roundToTick(mid - (width * tick) / 2, tick);
    return { bid, ask: roundToTick(bid + width * tick, tick) };
  }
}
