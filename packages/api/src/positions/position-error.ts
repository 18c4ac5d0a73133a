// The refusals of position operations, which the router turns into 404, 409 or 400.
import type { Store } from "@spreadwatch/db";

/** A refusal the router turns into its status: 404, 409 or 400 with this sentence. */
export class PositionError extends Error {
  constructor(
    readonly kind: "not_found" | "conflict" | "bad_request",
    message: string,
    readonly fields: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const positionNotFound = () => new PositionError("not_found", "Position not found");

/** The caller's open position: 404 when it is not theirs, 409 when it is closed. */
export async function ownOpen(store: Store, ownerId: number, id: number) {
  const position = await store.positions.find(ownerId, id);
  if (!position) throw positionNotFound();
  if (position.status !== "open")
    throw new PositionError("conflict", "This position is closed already");
  return position;
}

/** A close asked for more lots than are open (none: the position is closed). */
export const tooMany = (open: number) =>
  new PositionError(
    open === 0 ? "conflict" : "bad_request",
    open === 0
      ? "This position is closed already"
      : `Only ${open} lot${open === 1 ? " is" : "s are"} open`,
  );
