import {
  type CostRates,
  type DefinitionPerLot,
  definitionPerLot,
  type SpecOf,
  type SpreadLegDefinition,
} from "@spreadwatch/core";
import type { DefinitionEntry, DefinitionLegValue, DefinitionSymbol } from "./live-definition.ts";

/** What a definition's per-lot figures are worked out from, besides its entry. */
export interface DefinitionPerLotInputs {
  legs: readonly SpreadLegDefinition[];
  /** USDINR now (a US leg's fees are in dollars). */
  usdinr: number;
  rates: CostRates;
  specOf: SpecOf;
}

/**
 * A definition's published entry with its `perLot` (docs/formulas.md, "Net / lot") when a leg
 * has lots; the entry itself when none has. Like core's `withPerLot` for the built-ins, the
 * figures are worked out on first read (serialising reads them through toJSON) and kept: an
 * entry is replaced, never changed, so they cannot go stale, and the hub pays only for a wrapper
 * per published entry, never per quote.
 */
export function withDefinitionPerLot(
  entry: DefinitionEntry,
  inputs: DefinitionPerLotInputs,
): DefinitionEntry {
  if (!inputs.legs.some((leg) => leg.lots !== undefined)) return entry;
  return new DefinitionEntryWithPerLot(entry, inputs);
}

class DefinitionEntryWithPerLot implements DefinitionEntry {
  declare symbol: DefinitionSymbol;
  declare spread: number;
  declare mid?: number;
  declare legs: Record<string, DefinitionLegValue>;
  #inputs: DefinitionPerLotInputs | undefined;
  #perLot: DefinitionPerLot | undefined;

  constructor(entry: DefinitionEntry, inputs: DefinitionPerLotInputs) {
    Object.assign(this, entry);
    this.#inputs = inputs;
  }

  get perLot(): DefinitionPerLot | undefined {
    const inputs = this.#inputs;
    if (inputs) {
      this.#perLot = definitionPerLot(inputs, this, inputs.usdinr, inputs.rates, inputs.specOf);
      this.#inputs = undefined;
    }
    return this.#perLot;
  }

  toJSON(): DefinitionEntry {
    const { perLot, ...fields } = { ...this, perLot: this.perLot };
    return perLot ? { ...fields, perLot } : fields;
  }
}
