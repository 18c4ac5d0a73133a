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

/** The key_values row that says a campaign's fills were applied to a live position already. */
export const liveAppliedKey = (executionId: string) => `positions.live-applied.${executionId}`;

/** Lots-weighted mean of two figures (an entry, a leg's fill, a slippage). */
const weighted = (a: number, aLots: number, b: number, bLots: number) =>
  (a * aLots + b * bLots) / (aLots + bLots);

/**
 * What a settled campaign does to the live position its ticket named (docs/user-guide.md "Live
 * orders"): the same side adds its lots, with the entry, each leg's fill and the slippage
 * averaged by lots (paper positions never add, so this defines it); the opposite side closes up
 * to the open lots at the campaign's spread and opens any lots beyond as a new live position;
 * a position that is not an open live one on the same spread leaves the campaign its own.
 */
export function liveApplication(
  target: StoredPosition | undefined,
  fields: PositionFields,
):
  | { kind: "open" }
  | {
      kind: "add";
      set: { lots: number; entry: number; legs: string; slippageTicks: number | null };
    }
  | { kind: "reduce"; lots: number; rest: number } {
  if (target?.status !== "open" || target.executionId === null || target.spread !== fields.spread)
    return { kind: "open" };
  if (target.side !== fields.side) {
    const lots = Math.min(fields.lots, target.lots);
    return { kind: "reduce", lots, rest: fields.lots - lots };
  }
  const legs: Record<string, PositionLeg> = { ...target.legs };
  for (const [name, leg] of Object.entries(fields.legs)) {
    const before = target.legs[name];
    legs[name] = {
      ...leg,
      price: before ? weighted(before.price, target.lots, leg.price, fields.lots) : leg.price,
    };
  }
  const slippage =
    target.slippageTicks === null || fields.slippageTicks == null
      ? (target.slippageTicks ?? fields.slippageTicks ?? null)
      : weighted(target.slippageTicks, target.lots, fields.slippageTicks, fields.lots);
  return {
    kind: "add",
    set: {
      lots: target.lots + fields.lots,
      entry: weighted(target.entry, target.lots, fields.entry, fields.lots),
      legs: positionLegsJson(legs),
      slippageTicks: slippage,
    },
  };
}
