import type { PositionFields, PositionLeg, StoredPosition } from "./types.ts";

// Positions as both engines store them: the entry legs as one JSON text column.

export interface PositionRow extends Omit<StoredPosition, "legs"> {
  legs: string;
}

/** Only the legs' own fields (no stray keys reach the column). */
export function positionLegsJson(legs: Readonly<Record<string, PositionLeg>>): string {
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(legs).map(([name, leg]) => [
        name,
        {
          instrument: leg.instrument,
          price: leg.price,
          ...(leg.contract !== undefined && { contract: leg.contract }),
        },
      ]),
    ),
  );
}

export function storedPosition(row: PositionRow): StoredPosition {
  return { ...row, legs: JSON.parse(row.legs) as Record<string, PositionLeg> };
}

/** The row a new open position is, before its id (campaignId is set once the id is known). */
export function newPositionRow(ownerId: number, fields: PositionFields) {
  return {
    ownerId,
    spread: fields.spread,
    side: fields.side,
    lots: fields.lots,
    entry: fields.entry,
    units: fields.units,
    legs: positionLegsJson(fields.legs),
    note: fields.note,
    targetInr: fields.targetInr,
    stopInr: fields.stopInr,
    openedAt: fields.openedAt,
    executionId: fields.executionId ?? null,
    slippageTicks: fields.slippageTicks ?? null,
    status: "open" as const,
  };
}

/** The lots a close takes: all when unasked; null when more than are open. */
export function lotsToClose(position: StoredPosition, asked: number | undefined): number | null {
  if (position.status !== "open" || position.lots <= 0) return null;
  const lots = asked ?? position.lots;
  return lots > position.lots ? null : lots;
}
