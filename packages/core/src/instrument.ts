/** Grams in one troy ounce × 1 — the conversion every precious-metal parity rests on. */
export const TROY_OUNCE_GRAMS = 31.1034768;

export const INSTRUMENT_IDS = ["GC", "SI", "HG", "NG", "CL"] as const;
export type InstrumentId = (typeof INSTRUMENT_IDS)[number];

export const MCX_KEYS = ["GOLD", "SILVER", "COPPER", "NATURALGAS", "CRUDEOIL"] as const;
export type McxKey = (typeof MCX_KEYS)[number];

export interface Instrument {
  id: InstrumentId;
  name: string;
  cmeKey: InstrumentId;
  cmeUnit: string;
  mcxKey: McxKey;
  mcxUnit: string;
  /** Multiplies a CME price (in its unit) into the MCX unit, before currency and duty. */
  factor: number;
  defaultDuty: number;
}

/** docs/design.md §2. Order is the order traders scan: metals first, then energy. */
export const INSTRUMENTS: readonly Instrument[] = [
  {
    id: "GC",
    name: "Gold",
    cmeKey: "GC",
    cmeUnit: "USD / troy oz",
    mcxKey: "GOLD",
    mcxUnit: "INR / 10 g",
    factor: 10 / TROY_OUNCE_GRAMS,
    defaultDuty: 0.06,
  },
  {
    id: "SI",
    name: "Silver",
    cmeKey: "SI",
    cmeUnit: "USD / troy oz",
    mcxKey: "SILVER",
    mcxUnit: "INR / kg",
    factor: 1000 / TROY_OUNCE_GRAMS,
    defaultDuty: 0.06,
  },
  {
    id: "HG",
    name: "Copper",
    cmeKey: "HG",
    cmeUnit: "USD / lb",
    mcxKey: "COPPER",
    mcxUnit: "INR / kg",
    factor: 2.20462262185,
    defaultDuty: 0,
  },
  {
    id: "NG",
    name: "Natural Gas",
    cmeKey: "NG",
    cmeUnit: "USD / mmBtu",
    mcxKey: "NATURALGAS",
    mcxUnit: "INR / mmBtu",
    factor: 1,
    defaultDuty: 0,
  },
  {
    id: "CL",
    name: "Crude Oil",
    cmeKey: "CL",
    cmeUnit: "USD / bbl",
    mcxKey: "CRUDEOIL",
    mcxUnit: "INR / bbl",
    factor: 1,
    defaultDuty: 0,
  },
];

const byId = new Map(INSTRUMENTS.map((i) => [i.id, i]));
const byMcxKey = new Map(INSTRUMENTS.map((i) => [i.mcxKey, i]));

export function instrument(id: InstrumentId): Instrument {
  // The catalogue is closed over InstrumentId, so the lookup cannot miss.
  return byId.get(id) as Instrument;
}

export function instrumentByMcxKey(key: string): Instrument | undefined {
  return byMcxKey.get(key as McxKey);
}

export function isInstrumentId(value: string): value is InstrumentId {
  return byId.has(value as InstrumentId);
}

export type Duties = Record<InstrumentId, number>;

export function defaultDuties(): Duties {
  return Object.fromEntries(INSTRUMENTS.map((i) => [i.id, i.defaultDuty])) as Duties;
}
