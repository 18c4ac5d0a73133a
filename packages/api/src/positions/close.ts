// Closing some or all of a position's lots (docs/http-api.md "Positions API (paper)"), inside the
// idempotent create's transaction: `tx` is the only store it may use.
import { executableSymbol, exitSideOf } from "@spreadwatch/core";
import type { Store } from "@spreadwatch/db";
import type { SpreadRegistry } from "../spreads/registry.ts";
import { ownOpen, PositionError, positionNotFound, tooMany } from "./position-error.ts";
import type { ClosePositionInput } from "./position-input.ts";
import type { PositionsService } from "./service.ts";

export async function closeIn(
  tx: Store,
  services: { spreads: SpreadRegistry; positions: PositionsService },
  ownerId: number,
  input: Omit<ClosePositionInput, "idempotencyKey">,
) {
  const position = await ownOpen(tx, ownerId, input.id);
  const spread = services.spreads.bySymbolName(position.spread);
  const exitSide = exitSideOf(position.side);
  let exit: number;
  let exitLegs: Record<string, number>;
  if (input.price !== undefined) {
    exit = input.price;
    exitLegs = (spread && services.positions.side(spread, exitSide).live?.legs) ?? {};
  } else {
    if (!spread)
      throw new PositionError(
        "conflict",
        `No live value for ${executableSymbol(position.spread, exitSide)}; type the price instead`,
      );
    const live = services.positions.liveOrRefuse(spread, exitSide, position);
    exit = live.value;
    exitLegs = live.legs;
  }
  const result = await tx.positions.close(
    ownerId,
    input.id,
    { lots: input.lots, exit, closedAt: Date.now(), reason: "close" },
    services.positions.realiser(spread, exitLegs),
  );
  if (result.kind === "not_found") throw positionNotFound();
  if (result.kind === "too_many") throw tooMany(result.open);
  const { lots, realisedInr } = result.close;
  return { closed: { lots, exit, realisedInr }, open: result.position.status === "open" };
}
