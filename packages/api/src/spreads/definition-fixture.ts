import type { SpreadDefinition } from "@spreadwatch/core";

/**
 * A user's stored definition as tests write one: legs as `{ name: instrument }`. Kept out of the
 * server's code paths; the tests of the hub, the stream and the registry share it.
 */
export function userDefinition(
  id: number,
  ownerId: number,
  legs: Record<string, string>,
  formula: string,
  shared = false,
  updatedAt = 1,
): SpreadDefinition {
  return {
    id,
    symbol: `SP${id}`,
    name: `Spread ${id}`,
    legs: Object.entries(legs).map(([name, instrument]) => ({ name, instrument })),
    formula,
    shared,
    builtin: false,
    ownerId,
    createdAt: 1,
    updatedAt,
  };
}
