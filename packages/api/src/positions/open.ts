// What opening a position stores (docs/http-api.md "Positions API (paper)"): the entry at the live
// executable value, typed, or the formula at the legs' typed fills.
import type { CheckedDefinition } from "@spreadwatch/core";
import type { PositionFields } from "@spreadwatch/db";
import { PositionError } from "./position-error.ts";
import type { OpenPositionInput } from "./position-input.ts";
import type { PositionsService } from "./service.ts";

/**
 * The formula of `spread` at each leg's typed fill, or a 400 naming the leg that is unknown or
 * missing, or saying the formula has no value there.
 */
export function valueAtFills(
  symbol: string,
  spread: { legs: readonly { name: string }[]; checked?: CheckedDefinition | null },
  fills: Readonly<Record<string, number>>,
): number {
  const names = spread.legs.map((leg) => leg.name);
  const unknown = Object.keys(fills).find((name) => !names.includes(name));
  if (unknown !== undefined)
    throw new PositionError("bad_request", `legs: ${symbol} has no leg "${unknown}"`);
  const missing = names.find((name) => fills[name] === undefined);
  if (missing !== undefined)
    throw new PositionError("bad_request", `legs: the price of leg "${missing}" is missing`);
  const compiled = spread.checked?.compiled;
  const value = compiled?.evaluate(compiled.legs.map((name) => fills[name] as number));
  if (value === undefined || !Number.isFinite(value))
    throw new PositionError("bad_request", "legs: the formula has no value at these prices");
  return value;
}

/** What opening stores: the entry live, typed, or the formula at the typed leg prices. */
export function fieldsToOpen(
  services: { positions: PositionsService },
  who: { id: number; isAdmin: boolean },
  input: Omit<OpenPositionInput, "idempotencyKey">,
): PositionFields {
  const positions = services.positions;
  const spread = positions.tradable(who, input.spread);
  let entry: number;
  let legPrices: Record<string, number> = {};
  if (input.legs !== undefined) {
    legPrices = input.legs;
    entry = valueAtFills(spread.symbol, spread, input.legs);
  } else if (input.entry !== undefined) {
    entry = input.entry;
    legPrices = positions.side(spread, input.side).live?.legs ?? {};
  } else {
    const live = positions.liveOrRefuse(spread, input.side);
    entry = live.value;
    legPrices = live.legs;
  }
  const now = Date.now();
  if (input.openedAt !== undefined && input.openedAt > now + 60_000)
    throw new PositionError("bad_request", "openedAt must not be in the future");
  return {
    spread: spread.symbol,
    side: input.side,
    lots: input.lots,
    entry,
    units: input.units ?? positions.unitsOf(spread),
    legs: positions.legsAt(spread, legPrices),
    note: input.note ?? "",
    targetInr: input.targetInr ?? null,
    stopInr: input.stopInr ?? null,
    openedAt: input.openedAt ?? now,
  };
}
