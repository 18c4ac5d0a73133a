import {
  type DefinitionPerLot,
  formatNumber,
  type Prices,
  priceField,
  type QuoteSource,
} from "@spreadwatch/core";
import type { SpreadInput } from "./inputMarks.ts";

/** One leg of a definition's live entry: the price BUY or SELL took it at, and which side. */
export interface DefinitionLegValue {
  price: number;
  side: "bid" | "ask" | "mid";
  instrument: string;
}

/**
 * A definition's `SP7_BUY` / `SP7_SELL` entry in the calculations (docs/user-guide.md "Spreads of
 * your own").
 */
export interface DefinitionEntry {
  symbol: string;
  spread: number;
  mid?: number | null;
  legs: Record<string, DefinitionLegValue>;
  /** One lot of the spread in ₹, when its legs have lots (docs/formulas.md, "Net / lot"). */
  perLot?: DefinitionPerLot | undefined;
}

/** The leg of a definition as the API lists it. */
export interface DefinitionLeg {
  name: string;
  instrument: string;
  lots?: number | null | undefined;
}

function isLegValue(value: unknown): value is DefinitionLegValue {
  const leg = value as DefinitionLegValue | null;
  return typeof leg === "object" && leg !== null && typeof leg.price === "number";
}

function isPerLot(value: unknown): value is DefinitionPerLot {
  const lot = value as DefinitionPerLot | null | undefined;
  return (
    typeof lot === "object" &&
    lot !== null &&
    [lot.units, lot.grossInr, lot.costsInr, lot.netInr].every(Number.isFinite) &&
    typeof lot.breakdown === "object" &&
    lot.breakdown !== null
  );
}

/**
 * A definition side's entry from the calculations, checked for the shape it must have: the
 * calculations are typed for the built-ins, and an entry this screen cannot read is no entry.
 */
export function definitionEntry(
  calculations: Record<string, unknown>,
  symbol: string,
): DefinitionEntry | undefined {
  const entry = calculations[symbol] as DefinitionEntry | null | undefined;
  if (typeof entry !== "object" || entry === null) return undefined;
  if (typeof entry.spread !== "number" || !Number.isFinite(entry.spread)) return undefined;
  const legs = typeof entry.legs === "object" && entry.legs !== null ? entry.legs : {};
  const { perLot, ...rest } = entry;
  return {
    ...rest,
    legs: Object.values(legs).every(isLegValue) ? legs : {},
    ...(isPerLot(perLot) && { perLot }),
  };
}

/**
 * Decimals of a definition's values: a ratio (gold per 10 g over silver per kg is about 0.8)
 * needs 4, a calendar in rupees 2. Read from the value's size, so each definition shows what its
 * numbers need without anybody setting it.
 */
export function definitionDecimals(value: number | null | undefined): number {
  return value !== null && value !== undefined && Math.abs(value) < 10 ? 4 : 2;
}

/** Which group of the prices a catalogue key's quote is in (undefined while it has none). */
export function sourceOf(prices: Prices, key: string): QuoteSource | undefined {
  if (key in prices.mcx) return "mcx";
  if (key in prices.cme) return "cme";
  if (key in prices.fx) return "fx";
  if (key in prices.spot) return "spot";
  if (priceField(key) in prices.zerodha) return "index";
  return undefined;
}

function entryOf(prices: Prices, source: QuoteSource | undefined, key: string) {
  switch (source) {
    case "mcx":
      return prices.mcx[key];
    case "cme":
      return prices.cme[key];
    case "fx":
      return prices.fx[key];
    case "spot":
      return prices.spot[key];
    case "index":
      return prices.zerodha[priceField(key)];
    default:
      return undefined;
  }
}

/**
 * A definition row's inputs, for the same stale / crossed / missing greying as the built-in
 * rows: each leg's quote, read at the side the entry took it (a book leg without an entry is
 * judged as a whole book).
 */
export function definitionInputs(
  legs: readonly DefinitionLeg[],
  entry: DefinitionEntry | undefined,
  prices: Prices,
): SpreadInput[] {
  return legs.map((leg) => {
    const source = sourceOf(prices, leg.instrument);
    const side = entry?.legs[leg.name]?.side;
    const book = source === "mcx" || source === "cme";
    return {
      label: `${leg.name} (${leg.instrument})`,
      source: source ?? "mcx",
      key: leg.instrument,
      ...(book && (side === "bid" || side === "ask") && { side }),
      entry: entryOf(prices, source, leg.instrument),
    };
  });
}

/** "g 72,010.00 ask": one leg of an entry, as the legs column and the details list it. */
export function legText(name: string, leg: DefinitionLegValue | undefined): string {
  if (!leg) return `${name} —`;
  const decimals = definitionDecimals(leg.price) === 4 ? 4 : 2;
  return `${name} ${formatNumber(leg.price, decimals)} ${leg.side}`;
}
