import type { InstrumentSpec } from "@spreadwatch/core";
import type { Currency, Exchange, MonthSelector, ProviderKind } from "./enums.ts";
import type { InstrumentRoll, StoredInstrument } from "./types.ts";

// Instruments and rolls as both engines store them: one column per field, `source` as two.

export interface InstrumentRow {
  key: string;
  exchange: Exchange;
  name: string;
  unit: string;
  currency: Currency;
  lotUnits: number;
  tick: number;
  decimals: number;
  month: MonthSelector | null;
  sourceProvider: ProviderKind | null;
  sourceSymbol: string | null;
  createdAt: number;
  createdBy: number | null;
}

export function instrumentRow(spec: InstrumentSpec, by: number | null, at: number): InstrumentRow {
  return {
    key: spec.key,
    exchange: spec.exchange,
    name: spec.name,
    unit: spec.unit,
    currency: spec.currency,
    lotUnits: spec.lotUnits,
    tick: spec.tick,
    decimals: spec.decimals,
    month: spec.month,
    sourceProvider: spec.source?.provider ?? null,
    sourceSymbol: spec.source?.symbol ?? null,
    createdAt: at,
    createdBy: by,
  };
}

export function storedInstrument(row: InstrumentRow): StoredInstrument {
  const { sourceProvider, sourceSymbol, ...rest } = row;
  return {
    ...rest,
    ...(sourceProvider !== null &&
      sourceSymbol !== null && { source: { provider: sourceProvider, symbol: sourceSymbol } }),
  };
}

export interface RollRow {
  key: string;
  at: number;
  fromContract: string;
  toContract: string;
}

export const rollOf = (row: RollRow): InstrumentRoll => ({
  key: row.key,
  at: row.at,
  from: row.fromContract,
  to: row.toContract,
});
