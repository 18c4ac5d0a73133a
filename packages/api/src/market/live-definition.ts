// One spread definition as the hub evaluates it at every quote of its legs (docs/formulas.md):
// BUY and SELL with their mid and the price each leg was taken at, for a user's definition; the
// built-in parities' entries of today (symbol, spread, cme, mcx, parity, usdinr) from the same
// evaluation. It is core's `evaluateDefinition` without its per-call objects: the hub runs it ~12
// times per quote with 1,000 definitions loaded, so it gathers the legs' prices into one
// preallocated array, runs the formula once for BUY, SELL and mid (`evaluateThree`), keeps an
// entry object while its numbers stay the same (the stream's diff then skips it by identity) and
// writes new numbers into an entry nobody holds. live-definition.test.ts checks it against core's
// `evaluateDefinition`.
import {
  type CalculationEntry,
  type Calculations,
  type CheckedDefinition,
  type DefinitionPerLot,
  type Duties,
  INSTRUMENTS,
  type Instrument,
  type LegBook,
  parity,
  type Side,
  type SpreadSymbol,
} from "@spreadwatch/core";
import type { RegisteredSpread } from "../spreads/registry.ts";

/** A user definition's executable symbol: SP7_BUY, SP7_SELL. */
export type DefinitionSymbol = `SP${number}_${Side}`;
/** Every symbol the hub computes: the built-ins' GC_BUY … and the definitions' SP7_BUY …. */
export type ExecutableSymbol = SpreadSymbol | DefinitionSymbol;

export interface DefinitionLegValue {
  price: number;
  side: "bid" | "ask";
  instrument: string;
}

/** A user definition's entry in /api/calculations and the stream (docs/formulas.md). */
export interface DefinitionEntry {
  symbol: DefinitionSymbol;
  spread: number;
  /** Every leg at the middle of its book; absent while a leg has one side only. */
  mid?: number;
  legs: Record<string, DefinitionLegValue>;
  /** One lot of the spread in ₹ when a leg has lots (definition-per-lot-entry.ts adds it). */
  perLot?: DefinitionPerLot;
}

/** The hub's calculations: the built-ins' entries and the definitions'. */
export type HubCalculations = Calculations & { [S in DefinitionSymbol]?: DefinitionEntry };

export type LiveEntry = CalculationEntry | DefinitionEntry;

/** Where a built-in parity's legacy fields come from: its legs and today's parity inputs. */
interface Legacy {
  instrument: Instrument;
  duty: number;
  m: number;
  c: number;
  fx: number;
}

const BUILT_IN_PARITY = new Map(INSTRUMENTS.map((inst) => [inst.id as string, inst]));

export class LiveDefinition {
  readonly symbol: string;
  readonly buySymbol: ExecutableSymbol;
  readonly sellSymbol: ExecutableSymbol;
  /** The legs' instrument keys, in the formula's order. */
  readonly keys: readonly string[];
  /** null: everybody sees it (built-in or shared); else the only user who does. */
  readonly ownerId: number | null;
  /** A quote on a leg came since the last `recompute` (the hub's; see MarketHub). */
  stale = true;
  /** In the hub's list of definitions to publish at the next snapshot. */
  queued = false;
  /** Published once already (a new definition's entries show at once; see MarketHubOptions). */
  published = false;
  /** A built-in parity: today's entry shape, published at every version. */
  readonly builtin: boolean;
  private readonly names: readonly string[];
  private readonly up: readonly boolean[];
  /** `up` as bits (leg i at 1 << i), and the number of legs: read at every evaluation. */
  private readonly upMask: number;
  private readonly n: number;
  private readonly compiled: CheckedDefinition["compiled"];
  /**
   * Every number an evaluation reads or writes, in one array (one place in memory per
   * definition, from `base`): the run's three raw values (BUY, SELL, mid); from PRICES on, BUY's leg prices,
   * then SELL's, then mid's (one run of the formula gives all three); then where the hub keeps
   * each leg's book (`setSlots`, `recomputeFrom`).
   */
  private numbers: Float64Array;
  /** Where this definition's numbers begin in `numbers` (the hub keeps them all in one array). */
  private base = 0;
  /** Which of them are values now: HAS_BUY, HAS_SELL, HAS_MID. */
  private has = 0;
  /**
   * Each side's plain entry, made when one is asked for to keep (`buy`, `sell`: a snapshot,
   * `hub.entry`) and given again while its numbers hold; never changed once made.
   */
  private buyEntry: LiveEntry | undefined;
  private sellEntry: LiveEntry | undefined;
  /** Each plain entry's legs' objects, in the formula's order (none for a built-in's). */
  private readonly buyLegs: DefinitionLegValue[] = [];
  private readonly sellLegs: DefinitionLegValue[] = [];
  /** Each side as a listener reads it during its call (`peek`). */
  private readonly buyView: PeekedEntry;
  private readonly sellView: PeekedEntry;
  private readonly legacy: Legacy | undefined;
  /** `recompute`'s books (its legs' in order), made at its first call. */
  private ownBooks: Float64Array | undefined;

  constructor(spread: RegisteredSpread, checked: CheckedDefinition, duties: Duties) {
    this.symbol = spread.symbol;
    this.buySymbol = `${spread.symbol}_BUY` as ExecutableSymbol;
    this.sellSymbol = `${spread.symbol}_SELL` as ExecutableSymbol;
    this.ownerId = spread.builtin || spread.shared ? null : spread.ownerId;
    this.keys = checked.legs.map((leg) => leg.instrument);
    this.names = checked.legs.map((leg) => leg.name);
    const { compiled } = checked;
    // compiled.legs is the legs' order as compiled, the same as checked.legs (checkDefinition).
    this.up = compiled.legs.map((name) => compiled.directions[name] === 1);
    this.compiled = compiled;
    const n = this.keys.length;
    this.n = n;
    this.upMask = this.up.reduce((mask, up, i) => (up ? mask | (1 << i) : mask), 0);
    this.numbers = new Float64Array(this.size);
    this.setSlots(this.keys.map((_, i) => i));
    this.buyView = new PeekedEntry(this, true);
    this.sellView = new PeekedEntry(this, false);
    const inst = spread.builtin ? BUILT_IN_PARITY.get(spread.symbol) : undefined;
    this.builtin = inst !== undefined;
    if (inst) {
      const at = (name: string) => this.names.indexOf(name);
      this.legacy = {
        instrument: inst,
        duty: duties[inst.id],
        m: at("m"),
        c: at("c"),
        fx: at("fx"),
      };
      if (this.legacy.m < 0 || this.legacy.c < 0 || this.legacy.fx < 0)
        throw new Error(`the built-in ${spread.symbol} lacks its m, c or fx leg`);
    }
  }

  /**
   * BUY's entry as a plain object to keep: a reader may hold it (a snapshot, a test); it stays
   * the same object while its numbers do, and a change of them makes a new one.
   */
  get buy(): LiveEntry | undefined {
    return this.plain(true);
  }

  get sell(): LiveEntry | undefined {
    return this.plain(false);
  }

  /**
   * BUY's or SELL's entry to be read at once and not held (a hub listener's read during its
   * call): a user definition's is a view of its latest numbers, the same object at every quote,
   * so a value read at every quote costs no new objects and no writes (BENCHMARKS.md, "Spread
   * definitions"). A built-in's is its plain entry (today's fields, five of them).
   */
  peek(buying: boolean): LiveEntry | undefined {
    if (this.legacy) return this.plain(buying);
    if ((this.has & (buying ? HAS_BUY : HAS_SELL)) === 0) return undefined;
    return buying ? this.buyView : this.sellView;
  }

  /**
   * BUY and SELL from the legs' books now, as core's `evaluateDefinition` takes them: no value
   * for either when a leg has no book or a crossed one, for one side when a leg lacks the price
   * it takes, and when the formula has none (÷ 0). Returns whether either side's numbers changed.
   */
  recompute(bookOf: (key: string) => LegBook | undefined): boolean {
    const n = this.n;
    const slotsAt = this.base + PRICES + 3 * n;
    let size = 0;
    for (let i = 0; i < n; i++)
      size = Math.max(size, 2 * (this.numbers[slotsAt + i] as number) + 2);
    if (this.ownBooks === undefined || this.ownBooks.length < size)
      this.ownBooks = new Float64Array(size);
    const books = this.ownBooks;
    for (let i = 0; i < n; i++) {
      const book = bookOf(this.keys[i] as string);
      const at = 2 * (this.numbers[slotsAt + i] as number);
      books[at] = book?.bid ?? Number.NaN;
      books[at + 1] = book?.ask ?? Number.NaN;
    }
    const before = [this.side(true), this.side(false)];
    this.recomputeFrom(books);
    const after = [this.side(true), this.side(false)];
    return !after.every((side, i) => sameNumbers(side, before[i] as number[] | undefined));
  }

  /** Where leg i's book is in the books `recomputeFrom` reads: bid at 2 × slots[i], ask next. */
  setSlots(slots: readonly number[]): void {
    this.numbers.set(slots, this.base + PRICES + 3 * this.n);
  }

  /** How many numbers the definition keeps (see `numbers`). */
  get size(): number {
    return PRICES + 4 * this.n;
  }

  /**
   * Moves the definition's numbers to `numbers[base …]` (the hub's one array for every
   * definition, so evaluating a hundred of them reads one stretch of memory).
   */
  moveTo(numbers: Float64Array, base: number): void {
    numbers.set(this.numbers.subarray(this.base, this.base + this.size), base);
    this.numbers = numbers;
    this.base = base;
  }

  /**
   * As `recompute`, from books kept as numbers: leg i's bid at `books[2 × its slot]`, its ask
   * next to it, NaN for a side (or a book) that is not there. NaN fails every test a missing
   * side fails (not finite, not above the other side), so the values are `recompute`'s; the hub
   * keeps every instrument's book so and reads no object per leg (MarketHub). It writes numbers
   * only: entries are made when asked for.
   */
  recomputeFrom(books: Float64Array): void {
    let buyOk = true;
    let sellOk = true;
    let midOk = true;
    const n = this.n;
    const numbers = this.numbers;
    const base = this.base;
    const prices = base + PRICES;
    const slotsAt = prices + 3 * n;
    const upMask = this.upMask;
    for (let i = 0; i < n; i++) {
      const at = 2 * (numbers[slotsAt + i] as number);
      const bid = books[at] as number;
      const ask = books[at + 1] as number;
      // A crossed book cannot be traded as shown: no value, as for the built-ins.
      if (bid > ask) {
        buyOk = sellOk = midOk = false;
        break;
      }
      const up = (upMask & (1 << i)) !== 0;
      const b = up ? ask : bid;
      const s = up ? bid : ask;
      if (Number.isFinite(b)) numbers[prices + i] = b;
      else buyOk = false;
      if (Number.isFinite(s)) numbers[prices + n + i] = s;
      else sellOk = false;
      const mid = (bid + ask) / 2;
      if (Number.isFinite(mid)) numbers[prices + 2 * n + i] = mid;
      else midOk = false;
    }
    if (buyOk || sellOk) this.compiled.evaluateThree(numbers, numbers, prices, base);
    let has = 0;
    if (buyOk && Number.isFinite(numbers[base])) has |= HAS_BUY;
    if (sellOk && Number.isFinite(numbers[base + 1])) has |= HAS_SELL;
    // The built-ins' entries carry no mid (today's shape).
    if (this.legacy === undefined && midOk && has !== 0 && Number.isFinite(numbers[base + 2]))
      has |= HAS_MID;
    this.has = has;
  }

  /** A side's value now (undefined: none), for PeekedEntry. */
  valueOf(buying: boolean): number {
    return this.numbers[this.base + (buying ? 0 : 1)] as number;
  }

  /** The mid now, if there is one. */
  midNow(): number | undefined {
    return (this.has & HAS_MID) === 0 ? undefined : (this.numbers[this.base + 2] as number);
  }

  /** A side's legs now, as a new record (PeekedEntry's `legs`, when asked for). */
  legsNow(buying: boolean): Record<string, DefinitionLegValue> {
    const legs: Record<string, DefinitionLegValue> = {};
    const at = this.base + PRICES + (buying ? 0 : this.n);
    for (let i = 0; i < this.names.length; i++)
      legs[this.names[i] as string] = {
        price: this.numbers[at + i] as number,
        side: this.up[i] === buying ? "ask" : "bid",
        instrument: this.keys[i] as string,
      };
    return legs;
  }

  /** A side's numbers now (value, mid, leg prices), or undefined for no value: for `recompute`. */
  private side(buying: boolean): number[] | undefined {
    if ((this.has & (buying ? HAS_BUY : HAS_SELL)) === 0) return undefined;
    const at = this.base + PRICES + (buying ? 0 : this.n);
    return [
      this.valueOf(buying),
      this.midNow() ?? Number.NaN,
      ...this.numbers.subarray(at, at + this.n),
    ];
  }

  /** A side's plain entry: the one made before while its numbers hold, else a new one. */
  private plain(buying: boolean): LiveEntry | undefined {
    if ((this.has & (buying ? HAS_BUY : HAS_SELL)) === 0) return undefined;
    const spread = this.valueOf(buying);
    const mid = this.midNow();
    const at = this.base + PRICES + (buying ? 0 : this.n);
    const legs = buying ? this.buyLegs : this.sellLegs;
    const made = buying ? this.buyEntry : this.sellEntry;
    if (made !== undefined && this.holds(made, spread, mid, at, legs)) return made;
    const entry = this.entry(buying, spread, mid, at, legs);
    if (buying) this.buyEntry = entry;
    else this.sellEntry = entry;
    return entry;
  }

  /** Whether an entry shows these numbers already (0 and −0 told apart). */
  private holds(
    entry: LiveEntry,
    spread: number,
    mid: number | undefined,
    at: number,
    legs: readonly DefinitionLegValue[],
  ): boolean {
    if (!Object.is(entry.spread, spread)) return false;
    const prices = this.numbers;
    const legacy = this.legacy;
    if (legacy) {
      const built = entry as CalculationEntry;
      return (
        Object.is(built.cme, prices[at + legacy.c]) &&
        Object.is(built.mcx, prices[at + legacy.m]) &&
        Object.is(built.usdinr, prices[at + legacy.fx])
      );
    }
    if (!Object.is((entry as DefinitionEntry).mid, mid)) return false;
    for (let i = 0; i < legs.length; i++)
      if (!Object.is((legs[i] as DefinitionLegValue).price, prices[at + i])) return false;
    return true;
  }

  /** A new entry for a side's value and leg prices (from `prices[at]`); its legs go in `legs`. */
  private entry(
    buying: boolean,
    spread: number,
    mid: number | undefined,
    at: number,
    legValues: DefinitionLegValue[],
  ): LiveEntry {
    const symbol = buying ? this.buySymbol : this.sellSymbol;
    const prices = this.numbers;
    if (this.legacy) return this.legacyEntry(symbol, spread, prices, at);
    const legs: Record<string, DefinitionLegValue> = {};
    for (let i = 0; i < this.names.length; i++) {
      const price = prices[at + i] as number;
      // A plain entry is never changed, nor its legs: a leg whose price held is shared with the
      // entry before (the stream's once-a-second release makes a thousand entries at once).
      const before = legValues[i];
      const leg: DefinitionLegValue =
        before !== undefined && Object.is(before.price, price)
          ? before
          : {
              price,
              side: ((this.upMask & (1 << i)) !== 0) === buying ? "ask" : "bid",
              instrument: this.keys[i] as string,
            };
      legs[this.names[i] as string] = leg;
      legValues[i] = leg;
    }
    const definitionSymbol = symbol as DefinitionSymbol;
    return mid === undefined
      ? { symbol: definitionSymbol, spread, legs }
      : { symbol: definitionSymbol, spread, mid, legs };
  }

  /** Today's built-in entry: the legs' prices, and the parity core computes from them. */
  private legacyEntry(
    symbol: ExecutableSymbol,
    spread: number,
    prices: Float64Array,
    at: number,
  ): LiveEntry {
    const legacy = this.legacy as Legacy;
    const cme = prices[at + legacy.c] as number;
    const mcx = prices[at + legacy.m] as number;
    const usdinr = prices[at + legacy.fx] as number;
    // The field order of core's calculateSymbol, so the wire bytes stay today's.
    return {
      symbol: symbol as SpreadSymbol,
      spread,
      cme,
      mcx,
      parity: parity(cme, legacy.instrument, usdinr, legacy.duty),
      usdinr,
    };
  }
}

/** Where a definition's leg prices begin in its numbers (after the three values). */
const PRICES = 3;
const HAS_BUY = 1;
const HAS_SELL = 2;
const HAS_MID = 4;

/**
 * A user definition's side as a hub listener reads it during its call (LiveDefinition.peek):
 * its numbers are read from the definition when asked, so it is always the latest evaluation's.
 * Never kept, never sent: snapshots and `hub.entry` take plain entries (LiveDefinition.buy).
 */
class PeekedEntry implements DefinitionEntry {
  readonly symbol: DefinitionSymbol;
  readonly #definition: LiveDefinition;
  readonly #buying: boolean;

  constructor(definition: LiveDefinition, buying: boolean) {
    this.#definition = definition;
    this.#buying = buying;
    this.symbol = (buying ? definition.buySymbol : definition.sellSymbol) as DefinitionSymbol;
  }

  get spread(): number {
    return this.#definition.valueOf(this.#buying);
  }

  get mid(): number | undefined {
    return this.#definition.midNow();
  }

  get legs(): Record<string, DefinitionLegValue> {
    return this.#definition.legsNow(this.#buying);
  }
}

/** The same numbers (0 and −0 told apart, NaN equal to itself), or both none. */
function sameNumbers(a: readonly number[] | undefined, b: readonly number[] | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}
