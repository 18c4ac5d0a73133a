import type { CalculationEntry } from "./calculations.ts";
import {
  type CostBreakdown,
  type CostRates,
  defaultCostRates,
  roundPaise,
  roundTo,
  roundTripCosts,
  totalCosts,
} from "./costs.ts";
import type { InstrumentId } from "./instrument.ts";
import { type CmeContractKey, DEFAULT_LOTS, hedgeFor, type McxLotKey, mcxLot } from "./lot.ts";
import { parseSpreadSymbol, type SpreadSymbol } from "./symbol.ts";

/** A user's lot per instrument (GOLDM instead of GOLD, …); absent instruments use DEFAULT_LOTS. */
export type LotChoice = Partial<Record<InstrumentId, McxLotKey>>;

/** The `perLot` of a `/api/calculations` entry: one lot of the spread, in ₹, after costs. */
export interface PerLot {
  /** The MCX lot traded (GOLD, GOLDM, …). */
  contract: McxLotKey;
  /** Quote units per lot: the spread's multiplier. */
  units: number;
  /** spread × units, to paise. */
  grossInr: number;
  /** Round-trip costs of both legs, to paise. */
  costsInr: number;
  /** grossInr − costsInr. */
  netInr: number;
  hedge: {
    contract: CmeContractKey;
    contracts: number;
    /** MCX quote units left unhedged (negative: over-hedged), to 4 decimals; see `hedgeFor`. */
    unhedgedUnits: number;
  };
  /** Each cost line to paise; the lines may differ from costsInr by a paisa of rounding. */
  breakdown: CostBreakdown;
}

/**
 * One lot of `symbol`'s spread in rupees: what the spread is worth on the lot, what opening
 * and closing both legs costs at today's prices (MCX turnover at the entry's MCX price, CME
 * fees at `usdinr`), and what is left. The gross assumes the hedge covers the lot exactly;
 * `hedge.unhedgedUnits` says how far the whole-contract hedge misses. Undefined when an input
 * is not a finite number or the chosen lot belongs to another instrument.
 */
export function perLot(
  symbol: SpreadSymbol,
  entry: Pick<CalculationEntry, "spread" | "mcx">,
  usdinr: number,
  lotChoice: LotChoice = {},
  rates: CostRates = defaultCostRates(),
): PerLot | undefined {
  const { id } = parseSpreadSymbol(symbol);
  const lot = mcxLot(lotChoice[id] ?? DEFAULT_LOTS[id]);
  if (lot === undefined || lot.instrument !== id) return undefined;
  if (![entry.spread, entry.mcx, usdinr].every(Number.isFinite)) return undefined;
  const hedge = hedgeFor(lot);
  const costs = roundTripCosts(
    entry.mcx,
    lot.units,
    hedge.contract,
    hedge.contracts,
    usdinr,
    rates,
  );
  const grossInr = roundPaise(entry.spread * lot.units);
  const costsInr = roundPaise(totalCosts(costs));
  return {
    contract: lot.key,
    units: lot.units,
    grossInr,
    costsInr,
    netInr: roundPaise(grossInr - costsInr),
    hedge: {
      contract: hedge.contract,
      contracts: hedge.contracts,
      // 4 decimals (copper's) drop the float noise of the unit conversion: 6.6896, not 6.68956959999.
      unhedgedUnits: roundTo(hedge.unhedgedUnits, 4),
    },
    breakdown: roundBreakdown(costs),
  };
}

function roundBreakdown(b: CostBreakdown): CostBreakdown {
  return Object.fromEntries(
    Object.entries(b).map(([line, value]) => [line, roundPaise(value)]),
  ) as unknown as CostBreakdown;
}

/**
 * The entry with its standard-lot `perLot` (what `/api/calculations` serves). The hub adds it
 * to every entry on every quote, but perLot costs ~10 µs (its paise rounding works on decimal
 * strings): 20 µs a quote would cap the hub near 50,000 quotes/s. So it is computed on first
 * read — serialising a snapshot reads it through toJSON — and kept: entries are replaced,
 * never changed, so the value cannot go stale.
 */
export function withPerLot(
  entry: CalculationEntry | undefined,
  rates: CostRates = defaultCostRates(),
): CalculationEntry | undefined {
  return entry && new EntryWithPerLot(entry, rates);
}

class EntryWithPerLot implements CalculationEntry {
  declare symbol: CalculationEntry["symbol"];
  declare spread: number;
  declare cme: number;
  declare mcx: number;
  declare parity: number;
  declare usdinr: number;
  #rates: CostRates;
  #perLot: PerLot | undefined;
  #computed = false;

  constructor(entry: CalculationEntry, rates: CostRates) {
    Object.assign(this, entry);
    this.#rates = rates;
  }

  get perLot(): PerLot | undefined {
    if (!this.#computed) {
      this.#perLot = perLot(this.symbol, this, this.usdinr, {}, this.#rates);
      this.#computed = true;
    }
    return this.#perLot;
  }

  toJSON(): CalculationEntry {
    const { perLot, ...fields } = { ...this, perLot: this.perLot };
    return perLot ? { ...fields, perLot } : fields;
  }
}
