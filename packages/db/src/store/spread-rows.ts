import type { StoredSpreadDefinition, StoredSpreadLeg } from "./types.ts";

// Spread definitions as both engines store them: the legs as one JSON text column.

export interface SpreadRow {
  id: number;
  ownerId: number;
  name: string;
  legs: string;
  formula: string;
  shared: boolean;
  createdAt: number;
  updatedAt: number;
}

/** Only the leg fields, in a fixed order (no stray keys reach the column). */
export function legsJson(legs: readonly StoredSpreadLeg[]): string {
  return JSON.stringify(
    legs.map((leg) => ({
      name: leg.name,
      instrument: leg.instrument,
      ...(leg.lots !== undefined && { lots: leg.lots }),
    })),
  );
}

export function storedSpread(row: SpreadRow): StoredSpreadDefinition {
  return { ...row, legs: JSON.parse(row.legs) as StoredSpreadLeg[] };
}
