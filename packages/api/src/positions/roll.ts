// Rolling a position onto the next contract (docs/http-api.md "Positions API (paper)"): each leg
// moves to the contract it quotes after its own roll (core's rolledLegKeys: a leg the feed already
// rolled, or one already on a later month, stays); the rest (USDINR, spot) stays. The same formula
// on those legs is a definition the user can see, or a private one made for them.
import {
  bookIn,
  type CheckedDefinition,
  checkDefinition,
  contractMonthIndex,
  evaluateDefinition,
  exitSideOf,
  FormulaError,
  type InstrumentSpec,
  MAX_SPREADS,
  MAX_SPREADS_PER_USER,
  type PositionSide,
  rolledLegKeys,
  userSpreadSymbol,
} from "@spreadwatch/core";
import type { PositionLeg, Store } from "@spreadwatch/db";
import type { MarketHub } from "../market/hub.ts";
import { MID_ONLY_SYMBOLS } from "../spreads/built-ins.ts";
import type { RegisteredSpread, SpreadRegistry, SpreadViewer } from "../spreads/registry.ts";
import { legsStale } from "./live.ts";
import { valueAtFills } from "./open.ts";
import { ownOpen, PositionError, positionNotFound, tooMany } from "./position-error.ts";
import type { RollPositionInput } from "./position-input.ts";
import { entryPrices, type PositionsService } from "./service.ts";

type Leg = { name: string; instrument: string; lots?: number | undefined };

export interface RollTarget {
  /** A definition the user already sees with these legs and formula; else one is created. */
  existing: RegisteredSpread | undefined;
  definition: CheckedDefinition;
}

const sameLegs = (a: readonly Leg[], b: readonly Leg[]) =>
  a.length === b.length &&
  a.every((leg, i) => {
    const other = b[i] as Leg;
    return (
      leg.name === other.name && leg.instrument === other.instrument && leg.lots === other.lots
    );
  });

/**
 * The spread after the roll, or a 400 when no leg is on a future that rolls. `held` is the
 * position's legs (the contracts it holds); `contractNow` what a key quotes now.
 */
export function rollTarget(
  spread: RegisteredSpread,
  viewer: SpreadViewer,
  registry: SpreadRegistry,
  specOf: (key: string) => InstrumentSpec | undefined,
  knows: (key: string) => boolean,
  position: {
    legs: Readonly<Record<string, PositionLeg>>;
    contractNow: (key: string) => string | undefined;
  },
): RollTarget {
  const rolling = spread.legs.map((leg) => {
    const spec = specOf(leg.instrument);
    const held = position.legs[leg.name]?.contract;
    const now = position.contractNow(leg.instrument);
    const contract = now ?? held;
    return {
      key: leg.instrument,
      month: spec?.month ?? null,
      moved: held !== undefined && now !== undefined && held !== now,
      contractMonth: contract === undefined ? undefined : contractMonthIndex(contract),
    };
  });
  const keys = rolledLegKeys(rolling);
  const legs = spread.legs.map((leg, i) => {
    const spec = specOf(leg.instrument);
    const instrument = keys[i] as string;
    // A built-in parity's MCX leg trades its standard lot (the row's perLot): the rolled
    // definition says so, which gives it the same units and the MCX leg's costs.
    const lots = leg.lots ?? (spread.builtin && spec?.exchange === "MCX" ? 1 : undefined);
    return { name: leg.name, instrument, ...(lots !== undefined && { lots }) };
  });
  // Every leg to move was moved by the feed: the spread itself now quotes the next contracts.
  if (
    spread.checked &&
    rolling.some((leg) => leg.moved) &&
    legs.every((leg, i) => leg.instrument === spread.legs[i]?.instrument)
  )
    return { existing: spread, definition: spread.checked };
  if (sameLegs(legs, spread.legs))
    throw new PositionError(
      "bad_request",
      `${spread.name} has no near or next futures leg to roll to a later contract`,
    );
  const existing = registry
    .visibleTo(viewer)
    .find(
      (s) =>
        !MID_ONLY_SYMBOLS.has(s.symbol) &&
        s.checked !== null &&
        s.formula === spread.formula &&
        sameLegs(s.legs, legs),
    );
  if (existing?.checked) return { existing, definition: existing.checked };
  try {
    const name = `${spread.name} → next`.slice(0, 60);
    return {
      existing: undefined,
      definition: checkDefinition({ name, legs, formula: spread.formula }, knows),
    };
  } catch (error) {
    if (!(error instanceof FormulaError)) throw error;
    throw new PositionError(
      "bad_request",
      `The next contract's spread does not check: ${error.message}`,
    );
  }
}

/** The rolled spread's live value on `side` (its entry), or 409 while a leg has no fresh price. */
export function rollEntry(
  hub: MarketHub,
  definition: CheckedDefinition,
  side: PositionSide,
  now: number,
): { value: number; legs: Record<string, number> } {
  const prices = hub.snapshot().prices;
  const value = evaluateDefinition(definition, (key) => bookIn(prices, key))[side];
  const keys = definition.legs.map((leg) => leg.instrument);
  if (!value || legsStale(prices, keys, now))
    throw new PositionError(
      "conflict",
      "No live value on the next contract yet (a leg has no fresh price); try again in a moment, or type the entry or each leg's fill",
    );
  return {
    value: value.spread,
    legs: Object.fromEntries(Object.entries(value.legs).map(([name, leg]) => [name, leg.price])),
  };
}

/**
 * Inside the idempotent create's transaction (`tx` is the only store it may use): the exit and
 * the next entry, live or typed; the "→ next" definition when the user sees none; the close of
 * every lot and the new position in the same campaign.
 */
export async function rollIn(
  tx: Store,
  services: { hub: MarketHub; positions: PositionsService },
  ownerId: number,
  input: Omit<RollPositionInput, "idempotencyKey">,
  plan: { spread: RegisteredSpread; target: RollTarget },
) {
  const { spread, target } = plan;
  const position = await ownOpen(tx, ownerId, input.id);
  const exitSide = exitSideOf(position.side);
  const live =
    input.exit === undefined
      ? services.positions.liveOrRefuse(spread, exitSide, position)
      : undefined;
  const exit = input.exit ?? (live?.value as number);
  const exitLegs = live?.legs ?? services.positions.side(spread, exitSide).live?.legs ?? {};
  const next =
    input.legs !== undefined
      ? {
          value: valueAtFills(
            target.definition.name,
            target.existing ?? { legs: target.definition.legs, checked: target.definition },
            input.legs,
          ),
          legs: input.legs,
        }
      : input.entry === undefined
        ? rollEntry(services.hub, target.definition, position.side, Date.now())
        : { value: input.entry, legs: {} as Record<string, number> };
  let created: number | undefined;
  let symbol = target.existing?.symbol;
  if (symbol === undefined) {
    const fields = {
      name: target.definition.name,
      legs: target.definition.legs.map((leg) => ({
        name: leg.name,
        instrument: leg.instrument,
        ...(leg.lots !== undefined && { lots: leg.lots }),
      })),
      formula: target.definition.formula,
      shared: false,
    };
    const result = await tx.spreads.create(ownerId, fields, Date.now(), {
      perOwner: MAX_SPREADS_PER_USER,
      total: MAX_SPREADS,
    });
    if (result.kind === "full")
      throw new PositionError(
        "bad_request",
        "The next contract's spread cannot be saved: you have as many spreads as allowed. Delete one to roll.",
      );
    created = result.spread.id;
    symbol = userSpreadSymbol(result.spread.id);
  }
  const newSymbol = symbol;
  // With the contracts the legs quote now, so a later roll of the feed is seen (contractMoved).
  const legs = services.positions.legsAt(target.definition, next.legs);
  const now = Date.now();
  const result = await tx.positions.roll(
    ownerId,
    input.id,
    { exit, closedAt: now },
    services.positions.realiser(spread, { ...entryPrices(position), ...exitLegs }),
    (before) => ({
      spread: newSymbol,
      side: before.side,
      lots: before.lots,
      entry: next.value,
      units: before.units,
      legs,
      note: before.note,
      targetInr: before.targetInr,
      stopInr: before.stopInr,
      openedAt: now,
    }),
  );
  if (result.kind === "not_found") throw positionNotFound();
  if (result.kind === "too_many") throw tooMany(result.open);
  const { lots, realisedInr } = result.close;
  return { closed: { lots, exit, realisedInr }, id: result.position.id, created };
}
