// The instrument catalogue (docs/instruments.md): every instrument Spreadwatch
// knows how to quote, with its exchange, units, lot and tick. Fifteen are in use out of the box
// (the built-in spreads' legs); an admin puts any other in use (Admin → Instruments).
import { MONTH_SELECTORS, type MonthSelector } from "./contract-calendar.ts";
import type { QuoteSource } from "./quote.ts";

export const EXCHANGES = [
  "MCX",
  "NFO",
  "CDS",
  "COMEX",
  "NYMEX",
  "CME",
  "CBOT",
  "NSE",
  "NSEIX",
  "FX",
  "SPOT",
] as const;
export type Exchange = (typeof EXCHANGES)[number];

/**
 * The section of `/api/prices` an exchange's instruments are listed under. NSE futures (Kite's
 * NFO) and NSE currency futures (CDS) are Indian futures with a book, as MCX's are, so they share
 * its section (docs/instruments.md); NSE and FX keep the single-price index and FX sections.
 */
const GROUP_OF: Record<Exchange, QuoteSource> = {
  MCX: "mcx",
  NFO: "mcx",
  CDS: "mcx",
  COMEX: "cme",
  NYMEX: "cme",
  CME: "cme",
  CBOT: "cme",
  NSE: "index",
  NSEIX: "index",
  FX: "fx",
  SPOT: "spot",
};

export function groupOfExchange(exchange: Exchange): QuoteSource {
  return GROUP_OF[exchange];
}

export function isExchange(value: string): value is Exchange {
  return (EXCHANGES as readonly string[]).includes(value);
}

export const CURRENCIES = ["INR", "USD"] as const;
export type Currency = (typeof CURRENCIES)[number];

export const PROVIDER_KINDS = ["kite", "yahoo", "http-json"] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** Where a real feed finds an instrument: a Kite name or tradingsymbol, a Yahoo symbol, a JSON path. */
export interface InstrumentSource {
  provider: ProviderKind;
  symbol: string;
}

export interface InstrumentSpec {
  /** GOLD, GOLD@next, ZINC, BZ: the quote key everything else names. */
  key: string;
  exchange: Exchange;
  name: string;
  /** What a price is per: "INR / 10 g", "USD / bbl". */
  unit: string;
  currency: Currency;
  /** Quote units in one lot: GOLD is quoted per 10 g and a lot is 1 kg, so 100. */
  lotUnits: number;
  tick: number;
  decimals: number;
  /** For futures: which listed contract (near, next, far); null for spot, index and FX. */
  month: MonthSelector | null;
  /** Absent: the exchange's usual provider with the key's root as symbol. */
  source?: InstrumentSource;
}

/** At most this many instruments in use (docs/http-api.md, "Instruments"). */
export const MAX_INSTRUMENTS = 500;

/** A key is a root (letters, digits, `.`, `_`, `-`, up to 32) and an optional `@next` / `@far`. */
const KEY_PATTERN = /^[A-Z0-9][A-Z0-9._-]{0,31}(@(next|far))?$/;

export function isInstrumentKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

/** GOLD@next → { root: GOLD, month: next }; GOLD → { root: GOLD, month: near }. */
export function parseInstrumentKey(key: string): { root: string; month: MonthSelector } {
  const at = key.indexOf("@");
  if (at < 0) return { root: key, month: "near" };
  return { root: key.slice(0, at), month: key.slice(at + 1) as MonthSelector };
}

/** The key of a root's month: near is the root itself, so GOLD stays GOLD. */
export function monthKey(root: string, month: MonthSelector): string {
  return month === "near" ? root : `${root}@${month}`;
}

type Base = Omit<InstrumentSpec, "key" | "month">;

function mcx(name: string, unit: string, lotUnits: number, tick: number, decimals = 2): Base {
  return { exchange: "MCX", name, unit, currency: "INR", lotUnits, tick, decimals };
}

function cme(
  exchange: Exchange,
  name: string,
  unit: string,
  lotUnits: number,
  tick: number,
  decimals: number,
): Base {
  return { exchange, name, unit, currency: "USD", lotUnits, tick, decimals };
}

/**
 * Futures by root, with the lot and tick of their contract specifications (docs/instruments.md).
 * Each is in the catalogue in three months: ROOT (near), ROOT@next, ROOT@far.
 */
export const FUTURES: Readonly<Record<string, Base>> = {
  GOLD: mcx("Gold", "INR / 10 g", 100, 1),
  GOLDM: mcx("Gold Mini", "INR / 10 g", 10, 1),
  GOLDPETAL: mcx("Gold Petal", "INR / g", 1, 1),
  SILVER: mcx("Silver", "INR / kg", 30, 1),
  SILVERM: mcx("Silver Mini", "INR / kg", 5, 1),
  SILVERMIC: mcx("Silver Micro", "INR / kg", 1, 1),
  COPPER: mcx("Copper", "INR / kg", 2500, 0.05, 4),
  ZINC: mcx("Zinc", "INR / kg", 5000, 0.05),
  ALUMINIUM: mcx("Aluminium", "INR / kg", 5000, 0.05),
  LEAD: mcx("Lead", "INR / kg", 5000, 0.05),
  NICKEL: mcx("Nickel", "INR / kg", 250, 0.1),
  CRUDEOIL: mcx("Crude Oil", "INR / bbl", 100, 1),
  CRUDEOILM: mcx("Crude Oil Mini", "INR / bbl", 10, 1),
  NATURALGAS: mcx("Natural Gas", "INR / mmBtu", 1250, 0.1),
  NATGASMINI: mcx("Natural Gas Mini", "INR / mmBtu", 250, 0.1),
  GC: cme("COMEX", "Gold", "USD / troy oz", 100, 0.1, 3),
  MGC: cme("COMEX", "Micro Gold", "USD / troy oz", 10, 0.1, 3),
  SI: cme("COMEX", "Silver", "USD / troy oz", 5000, 0.005, 3),
  SIL: cme("COMEX", "Micro Silver (1,000 oz)", "USD / troy oz", 1000, 0.005, 3),
  HG: cme("COMEX", "Copper", "USD / lb", 25_000, 0.0005, 4),
  CL: cme("NYMEX", "WTI Crude Oil", "USD / bbl", 1000, 0.01, 3),
  MCL: cme("NYMEX", "Micro WTI Crude Oil", "USD / bbl", 100, 0.01, 3),
  BZ: cme("NYMEX", "Brent Crude Oil", "USD / bbl", 1000, 0.01, 3),
  NG: cme("NYMEX", "Henry Hub Natural Gas", "USD / mmBtu", 10_000, 0.001, 3),
  QG: cme("NYMEX", "E-mini Natural Gas", "USD / mmBtu", 2500, 0.005, 3),
};

const SPOT_INDEX_FX: readonly InstrumentSpec[] = [
  {
    key: "XAUUSD",
    exchange: "SPOT",
    name: "Spot Gold",
    unit: "USD / troy oz",
    currency: "USD",
    lotUnits: 1,
    tick: 0.01,
    decimals: 2,
    month: null,
  },
  {
    key: "XAGUSD",
    exchange: "SPOT",
    name: "Spot Silver",
    unit: "USD / troy oz",
    currency: "USD",
    lotUnits: 1,
    tick: 0.001,
    decimals: 2,
    month: null,
  },
  {
    key: "NIFTY50",
    exchange: "NSE",
    name: "NIFTY 50",
    unit: "points",
    currency: "INR",
    lotUnits: 75,
    tick: 0.05,
    decimals: 2,
    month: null,
  },
  {
    key: "GIFTNIFTY",
    exchange: "NSEIX",
    name: "GIFT NIFTY",
    unit: "points",
    currency: "USD",
    lotUnits: 1,
    tick: 0.5,
    decimals: 2,
    month: null,
  },
  {
    key: "USDINR",
    exchange: "FX",
    name: "US Dollar / Indian Rupee",
    unit: "INR / USD",
    currency: "INR",
    lotUnits: 1000,
    tick: 0.0025,
    decimals: 4,
    month: null,
  },
];

/** Every instrument Spreadwatch ships: spot, index and FX, and each future in three months. */
export const SHIPPED_INSTRUMENTS: readonly InstrumentSpec[] = [
  ...Object.entries(FUTURES).flatMap(([root, base]) =>
    MONTH_SELECTORS.map(
      (month): InstrumentSpec => ({
        ...base,
        key: monthKey(root, month),
        // "Gold MCX (next month)", "Gold COMEX (next month)": GOLD@next and GC@next apart.
        name: month === "near" ? base.name : `${base.name} ${base.exchange} (${month} month)`,
        month,
      }),
    ),
  ),
  ...SPOT_INDEX_FX,
];

/** In use on every server, whatever the admin does: the built-in spreads' legs. */
export const BUILT_IN_KEYS = [
  "GC",
  "SI",
  "HG",
  "NG",
  "CL",
  "GOLD",
  "SILVER",
  "COPPER",
  "NATURALGAS",
  "CRUDEOIL",
  "XAUUSD",
  "XAGUSD",
  "NIFTY50",
  "GIFTNIFTY",
  "USDINR",
] as const;

const shippedByKey = new Map(SHIPPED_INSTRUMENTS.map((spec) => [spec.key, spec]));

export function shippedInstrument(key: string): InstrumentSpec | undefined {
  return shippedByKey.get(key);
}

export const BUILT_IN_INSTRUMENTS: readonly InstrumentSpec[] = BUILT_IN_KEYS.map(
  (key) => shippedByKey.get(key) as InstrumentSpec,
);

/** Futures books carry bid and ask; spot, index and FX a single price. */
export function quotesBook(spec: Pick<InstrumentSpec, "exchange">): boolean {
  const group = groupOfExchange(spec.exchange);
  return group === "cme" || group === "mcx";
}
