import { type InstrumentId, instrument } from "./instrument.ts";

/**
 * Contract sizes as data (docs/instruments.md). Quantities are kept in the MCX quote unit of the
 * instrument (10 g for gold, kg for silver and copper, mmBtu, bbl), so a lot's size is directly
 * the multiplier of a spread quoted per MCX unit.
 */
export const MCX_LOT_KEYS = [
  "GOLD",
  "GOLDM",
  "SILVER",
  "SILVERM",
  "COPPER",
  "NATURALGAS",
  "NATGASMINI",
  "CRUDEOIL",
  "CRUDEOILM",
] as const;
export type McxLotKey = (typeof MCX_LOT_KEYS)[number];

export interface McxLot {
  key: McxLotKey;
  instrument: InstrumentId;
  /** What the trader reads: "1 kg", "30 kg", "100 bbl". */
  size: string;
  /** Quote units per lot: GOLD is 1 kg quoted per 10 g, so 100. */
  units: number;
}

export const MCX_LOTS: readonly McxLot[] = [
  { key: "GOLD", instrument: "GC", size: "1 kg", units: 100 },
  { key: "GOLDM", instrument: "GC", size: "100 g", units: 10 },
  { key: "SILVER", instrument: "SI", size: "30 kg", units: 30 },
  { key: "SILVERM", instrument: "SI", size: "5 kg", units: 5 },
  { key: "COPPER", instrument: "HG", size: "2,500 kg", units: 2500 },
  { key: "NATURALGAS", instrument: "NG", size: "1,250 mmBtu", units: 1250 },
  { key: "NATGASMINI", instrument: "NG", size: "250 mmBtu", units: 250 },
  { key: "CRUDEOIL", instrument: "CL", size: "100 bbl", units: 100 },
  { key: "CRUDEOILM", instrument: "CL", size: "10 bbl", units: 10 },
];

export const CME_CONTRACT_KEYS = [
  "GC",
  "MGC",
  "SI",
  "SIL",
  "HG",
  "MHG",
  "NG",
  "QG",
  "CL",
  "MCL",
] as const;
export type CmeContractKey = (typeof CME_CONTRACT_KEYS)[number];

export interface CmeContract {
  key: CmeContractKey;
  instrument: InstrumentId;
  /** Contract size in the CME price unit (troy oz, lb, mmBtu, bbl). */
  size: number;
}

/** Full-size first, then the smaller contract of the same market. */
export const CME_CONTRACTS: readonly CmeContract[] = [
  { key: "GC", instrument: "GC", size: 100 },
  { key: "MGC", instrument: "GC", size: 10 },
  { key: "SI", instrument: "SI", size: 5000 },
  { key: "SIL", instrument: "SI", size: 1000 },
  { key: "HG", instrument: "HG", size: 25_000 },
  { key: "MHG", instrument: "HG", size: 2500 },
  { key: "NG", instrument: "NG", size: 10_000 },
  { key: "QG", instrument: "NG", size: 2500 },
  { key: "CL", instrument: "CL", size: 1000 },
  { key: "MCL", instrument: "CL", size: 100 },
];

/** The standard lot of each instrument: what `perLot` uses when no lot is chosen. */
export const DEFAULT_LOTS: Readonly<Record<InstrumentId, McxLotKey>> = {
  GC: "GOLD",
  SI: "SILVER",
  HG: "COPPER",
  NG: "NATURALGAS",
  CL: "CRUDEOIL",
};

const lotsByKey = new Map(MCX_LOTS.map((lot) => [lot.key, lot]));
const contractsByKey = new Map(CME_CONTRACTS.map((c) => [c.key, c]));

export function isMcxLotKey(value: string): value is McxLotKey {
  return lotsByKey.has(value as McxLotKey);
}

export function mcxLot(key: McxLotKey): McxLot {
  // Closed over McxLotKey: the lookup cannot miss.
  return lotsByKey.get(key) as McxLot;
}

export function cmeContract(key: CmeContractKey): CmeContract {
  return contractsByKey.get(key) as CmeContract;
}

/** The lots a trader may pick for an instrument (standard first, then the mini). */
export function lotsOf(id: InstrumentId): McxLot[] {
  return MCX_LOTS.filter((lot) => lot.instrument === id);
}

/**
 * A CME contract's size in MCX quote units. The instrument's `factor` turns a price per CME
 * unit into a price per MCX unit, i.e. one MCX unit holds `factor` CME units, so a quantity
 * converts the other way: GC 100 oz = 100 / (10 / 31.1034768) = 311.034768 units of 10 g.
 */
export function contractUnits(contract: CmeContract): number {
  return contract.size / instrument(contract.instrument).factor;
}

export interface Hedge {
  contract: CmeContractKey;
  /** Whole contracts: the nearest whole number to the lot's size in that contract. */
  contracts: number;
  /** The exact (fractional) number of contracts the lot equals, for the tooltip. */
  ratio: number;
  /**
   * Lot units minus hedged units, in MCX quote units (the unit of `units`), signed: positive
   * leaves part of the MCX leg open, negative hedges more than the lot.
   */
  unhedgedUnits: number;
}

/**
 * The CME hedge for one MCX lot: of the instrument's contracts, the one whose nearest whole
 * number of contracts leaves the smaller |unhedged remainder|; a tie goes to the smaller
 * contract (it costs less per contract and is the finer hedge when lots are added). Half a
 * contract rounds down, so an exact half is left unhedged rather than hedged twice over.
 */
export function hedgeFor(lot: McxLot): Hedge {
  const candidates = CME_CONTRACTS.filter((c) => c.instrument === lot.instrument)
    .map((c) => hedgeWith(lot, c))
    .sort((a, b) => Math.abs(a.unhedgedUnits) - Math.abs(b.unhedgedUnits) || sizeOf(a) - sizeOf(b));
  return candidates[0] as Hedge;
}

function sizeOf(hedge: Hedge): number {
  return cmeContract(hedge.contract).size;
}

function hedgeWith(lot: McxLot, contract: CmeContract): Hedge {
  const per = contractUnits(contract);
  const ratio = lot.units / per;
  // Round half down: 0.5 of a QG is not worth doubling the exposure for.
  const contracts = Math.max(0, Math.ceil(ratio - 0.5)); // max: never -0 below half
  return { contract: contract.key, contracts, ratio, unhedgedUnits: lot.units - contracts * per };
}
