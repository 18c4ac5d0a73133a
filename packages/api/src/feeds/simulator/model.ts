import {
  type Duties,
  groupOfExchange,
  INSTRUMENT_IDS,
  type InstrumentId,
  type InstrumentSpec,
  instrument,
  instrumentByMcxKey,
  parity,
  parseInstrumentKey,
  type Quote,
  quotesBook,
} from "@spreadwatch/core";
import { CatalogueCurves, type CatalogueMid } from "./curves.ts";
import { BOOKS, PRICE_TICKS, UNKNOWN_WIDTH_TICKS, WIDTH_TICKS } from "./params.ts";
import { MarketPath, type PathLevels } from "./path.ts";
import { roundToTick } from "./random.ts";

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
  private pathLevels: PathLevels | undefined;
  /** Every other catalogue instrument, on curves over this path (curves.ts). */
  private readonly curves: CatalogueCurves;

  constructor(
    private readonly random: () => number,
    private readonly duties: Duties,
    options: SimulatorModelOptions = {},
  ) {
    const seed = options.seed ?? DEFAULT_SEED;
    this.path = new MarketPath(seed, random);
    this.path.moveTo(options.start ?? 0);
    this.curves = new CatalogueCurves(seed, duties, () => this.base());
    this.curves.moveTo(this.path.time);
  }

  get time(): number {
    return this.path.time;
  }

  /** Moves the market to `ts` (epoch ms). */
  moveTo(ts: number): void {
    this.path.moveTo(ts);
    this.cached = undefined;
    this.pathLevels = undefined;
    this.curves.moveTo(this.path.time);
  }

  /** Moves the market `dt` seconds on. */
  step(dt: number): void {
    this.moveTo(this.path.time + dt * 1000);
  }

  levels(): MarketLevels {
    this.cached ??= this.computeLevels();
    return this.cached;
  }

  private base(): PathLevels {
    this.pathLevels ??= this.path.levels();
    return this.pathLevels;
  }

  private computeLevels(): MarketLevels {
    const { legs, ous } = this.base();
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

  /**
   * Any instrument in use (docs/instruments.md), quoted under its exchange's group: the five
   * spot, index and FX keys as above, futures from their curves with the contract the calendar
   * names, a key the simulator does not know from its own walk. `random` is the instrument's own
   * sequence (book widths), so adding or removing another instrument leaves its quotes alone.
   */
  quoteFor(spec: InstrumentSpec, ts: number, random: () => number): Quote {
    return this.quoterFor(spec)(ts, random);
  }

  /** `quoteFor` with what depends on the spec alone worked out once: a backfill calls it ~10⁷ times. */
  quoterFor(spec: InstrumentSpec): (ts: number, random: () => number) => Quote {
    const source = groupOfExchange(spec.exchange);
    const { key } = spec;
    if (FIVE.has(key)) {
      return (ts) => ({ ...(this.oneOfTheFive(key, ts) as Quote), source });
    }
    const tick = Number.isFinite(spec.tick) && spec.tick > 0 ? spec.tick : 0.01;
    const book = quotesBook(spec);
    const widths = widthTicks(key);
    return (ts, random) => {
      const { mid, contract } = this.curves.mid(spec, ts);
      const quote: Quote = book
        ? { source, key, ts, ...this.book(mid, tick, widths, random) }
        : { source, key, ts, price: roundToTick(mid, tick) };
      if (contract) {
        quote.contract = contract.symbol;
        quote.expiry = contract.expiry;
      }
      return quote;
    };
  }

  /** A catalogue instrument's mid and contract at the model's time (tests read the curves here). */
  midOf(spec: InstrumentSpec, ts: number): CatalogueMid {
    return this.curves.mid(spec, ts);
  }

  /** Forgets what the curves keep for keys no longer in use (unknown keys' walks). */
  retain(keys: ReadonlySet<string>): void {
    this.curves.retain(keys);
  }

  private oneOfTheFive(key: string, ts: number): Quote | undefined {
    switch (key) {
      case "XAUUSD":
      case "XAGUSD":
        return this.spotQuote(key, ts);
      case "NIFTY50":
      case "GIFTNIFTY":
        return this.indexQuote(key, ts);
      case "USDINR":
        return this.fxQuote(ts);
      default:
        return undefined;
    }
  }

  /** A book `width` ticks wide around `mid`, the width drawn from the instrument's usual range. */
  private book(
    mid: number,
    tick: number,
    widthTicks: readonly [number, number],
    random: () => number = this.random,
  ): { bid: number; ask: number } {
    const [min, max] = widthTicks;
    const width = min + Math.floor(random() * (max - min + 1));
    const bid = roundToTick(mid - (width * tick) / 2, tick);
    return { bid, ask: roundToTick(bid + width * tick, tick) };
  }
}

/** Spot, index and FX: quoted by the built-in formulas whether or not setInstruments was called. */
const FIVE = new Set(["XAUUSD", "XAGUSD", "NIFTY50", "GIFTNIFTY", "USDINR"]);

/** A future's usual quoted width in ticks: the built-in BOOKS table, then WIDTH_TICKS. */
function widthTicks(key: string): readonly [number, number] {
  const { root } = parseInstrumentKey(key);
  if ((INSTRUMENT_IDS as readonly string[]).includes(root)) {
    return BOOKS[root as InstrumentId].cmeWidthTicks;
  }
  const mcx = instrumentByMcxKey(root);
  if (mcx) return BOOKS[mcx.id].mcxWidthTicks;
  return WIDTH_TICKS[root] ?? UNKNOWN_WIDTH_TICKS;
}
