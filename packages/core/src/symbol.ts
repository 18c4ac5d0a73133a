import { INSTRUMENT_IDS, type InstrumentId, instrument } from "./instrument.ts";

export const SIDES = ["BUY", "SELL"] as const;
export type Side = (typeof SIDES)[number];

/** The ten executable spread symbols, e.g. GC_BUY. */
export type SpreadSymbol = `${InstrumentId}_${Side}`;

export const SPREAD_SYMBOLS: readonly SpreadSymbol[] = INSTRUMENT_IDS.flatMap((id) =>
  SIDES.map((side) => `${id}_${side}` as SpreadSymbol),
);

/** Dashboard grouping from docs/spec.md §2: Silver, Gold, Copper, Natural Gas, Crude Oil. */
export const SPREAD_TABLE_GROUPS: readonly InstrumentId[] = ["SI", "GC", "HG", "NG", "CL"];

export function isSpreadSymbol(value: string): value is SpreadSymbol {
  return (SPREAD_SYMBOLS as readonly string[]).includes(value);
}

export function parseSpreadSymbol(symbol: SpreadSymbol): { id: InstrumentId; side: Side } {
  const [id, side] = symbol.split("_") as [InstrumentId, Side];
  return { id, side };
}

/** "Gold Buy", "Natural Gas Sell" — the labels of selects and notifications. */
export function spreadSymbolLabel(symbol: SpreadSymbol): string {
  const { id, side } = parseSpreadSymbol(symbol);
  return `${instrument(id).name} ${side === "BUY" ? "Buy" : "Sell"}`;
}
