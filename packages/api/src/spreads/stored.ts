// The store's definitions as the registry holds them, and what a leg may name.
import { type SpreadDefinition, shippedInstrument, userSpreadSymbol } from "@spreadwatch/core";
import type { Store, StoredSpreadDefinition } from "@spreadwatch/db";

export function definitionOf(row: StoredSpreadDefinition): SpreadDefinition {
  return {
    id: row.id,
    symbol: userSpreadSymbol(row.id),
    name: row.name,
    legs: row.legs,
    formula: row.formula,
    shared: row.shared,
    builtin: false,
    ownerId: row.ownerId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The registry's loader: every user's definitions, oldest first. */
export function storedDefinitions(store: Store): () => Promise<SpreadDefinition[]> {
  return async () => (await store.spreads.list()).map(definitionOf);
}

/**
 * Whether a leg may name `key`: an instrument in use, or a shipped one (which a definition's
 * save then puts in use, docs/formulas.md).
 */
/** `instruments`: the catalogue of the instruments in use (instruments/catalogue.ts). */
export function legInstrumentKnown(instruments: {
  get(key: string): unknown;
}): (key: string) => boolean {
  return (key) => instruments.get(key) !== undefined || shippedInstrument(key) !== undefined;
}
