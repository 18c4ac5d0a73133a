// One spread definition as the hub evaluates it at every quote of its legs (docs/formulas.md):
// BUY and SELL with their mid and the price each leg was taken at, for a user's definition; the
// built-in parities' entries of today (symbol, spread, cme, mcx, parity, usdinr) from the same
// evaluation. It is core's `evaluateSide` without its per-call arrays: the hub runs it ~12 times
// per quote with 1,000 definitions loaded, so it works in three preallocated price arrays and
// keeps an entry object while its numbers stay the same (the stream's diff then skips it by
// identity). live-definition.test.ts checks it against core's `evaluateDefinition`.
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
  buy: LiveEntry | undefined;
  sell: LiveEntry | undefined;
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
  private readonly evaluate: CheckedDefinition["compiled"]["evaluate"];
  private readonly buyPrices: Float64Array;
  private readonly sellPrices: Float64Array;
  private readonly midPrices: Float64Array;
  /** What the current entries were made of (NaN: no value), to keep them while it holds. */
  private readonly buyMade: Float64Array;
  private readonly sellMade: Float64Array;
  private buyValue = Number.NaN;
  private sellValue = Number.NaN;
  private midValue = Number.NaN;
  private readonly legacy: Legacy | undefined;

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
    this.evaluate = compiled.evaluate;
    const n = this.keys.length;
    this.buyPrices = new Float64Array(n);
    this.sellPrices = new Float64Array(n);
    this.midPrices = new Float64Array(n);
    this.buyMade = new Float64Array(n);
    this.sellMade = new Float64Array(n);
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
   * BUY and SELL from the legs' books now, as core's `evaluateSide` takes them: no value for
   * either when a leg has no book or a crossed one, for one side when a leg lacks the price it
   * takes, and when the formula has none (÷ 0). Returns whether an entry was replaced.
   */
  recompute(bookOf: (key: string) => LegBook | undefined): boolean {
    let buyOk = true;
    let sellOk = true;
    let midOk = true;
    const n = this.keys.length;
    for (let i = 0; i < n; i++) {
      const book = bookOf(this.keys[i] as string);
      if (book === undefined) {
        buyOk = sellOk = midOk = false;
        break;
      }
      const bid = book.bid;
      const ask = book.ask;
      if (bid !== undefined && ask !== undefined && bid > ask) {
        buyOk = sellOk = midOk = false;
        break;
      }
      const up = this.up[i];
      const b = up ? ask : bid;
      const s = up ? bid : ask;
      if (b === undefined || !Number.isFinite(b)) buyOk = false;
      else this.buyPrices[i] = b;
      if (s === undefined || !Number.isFinite(s)) sellOk = false;
      else this.sellPrices[i] = s;
      if (bid === undefined || ask === undefined) midOk = false;
      else {
        const mid = (bid + ask) / 2;
        if (Number.isFinite(mid)) this.midPrices[i] = mid;
        else midOk = false;
      }
    }
    const buy = buyOk ? this.evaluate(this.buyPrices) : undefined;
    const sell = sellOk ? this.evaluate(this.sellPrices) : undefined;
    // The built-ins' entries carry no mid (today's shape).
    const mid =
      this.legacy === undefined && midOk && (buy !== undefined || sell !== undefined)
        ? this.evaluate(this.midPrices)
        : undefined;
    const midSame = sameNumber(mid ?? Number.NaN, this.midValue);
    this.midValue = mid ?? Number.NaN;
    let changed = false;
    if (buy === undefined) {
      changed = this.buy !== undefined;
      this.buy = undefined;
    } else if (
      this.buy === undefined ||
      !midSame ||
      !sameNumber(buy, this.buyValue) ||
      !samePrices(this.buyPrices, this.buyMade, n)
    ) {
      this.buyValue = buy;
      this.buyMade.set(this.buyPrices);
      this.buy = this.entry(this.buySymbol, buy, mid, this.buyPrices, true);
      changed = true;
    }
    if (sell === undefined) {
      changed ||= this.sell !== undefined;
      this.sell = undefined;
    } else if (
      this.sell === undefined ||
      !midSame ||
      !sameNumber(sell, this.sellValue) ||
      !samePrices(this.sellPrices, this.sellMade, n)
    ) {
      this.sellValue = sell;
      this.sellMade.set(this.sellPrices);
      this.sell = this.entry(this.sellSymbol, sell, mid, this.sellPrices, false);
      changed = true;
    }
    return changed;
  }

  private entry(
    symbol: ExecutableSymbol,
    spread: number,
    mid: number | undefined,
    prices: Float64Array,
    buying: boolean,
  ): LiveEntry {
    if (this.legacy) return this.legacyEntry(symbol, spread, prices);
    const legs: Record<string, DefinitionLegValue> = {};
    for (let i = 0; i < this.names.length; i++)
      legs[this.names[i] as string] = {
        price: prices[i] as number,
        side: this.up[i] === buying ? "ask" : "bid",
        instrument: this.keys[i] as string,
      };
    const definitionSymbol = symbol as DefinitionSymbol;
    return mid === undefined
      ? { symbol: definitionSymbol, spread, legs }
      : { symbol: definitionSymbol, spread, mid, legs };
  }

  /** Today's built-in entry: the legs' prices, and the parity core computes from them. */
  private legacyEntry(symbol: ExecutableSymbol, spread: number, prices: Float64Array): LiveEntry {
    const legacy = this.legacy as Legacy;
    const cme = prices[legacy.c] as number;
    const mcx = prices[legacy.m] as number;
    const usdinr = prices[legacy.fx] as number;
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

/** Equal numbers, telling 0 from −0 and taking NaN (no value) as equal to itself. */
function sameNumber(a: number, b: number): boolean {
  return Object.is(a, b);
}

function samePrices(a: Float64Array, b: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (!sameNumber(a[i] as number, b[i] as number)) return false;
  return true;
}
