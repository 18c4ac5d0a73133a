import type { PositionView } from "../../hooks/positions/usePositions.ts";
import { TicketLink } from "../market/TicketLink.tsx";

/** A paper position's "Place for real": the ticket for its spread, side and lots (not a live one). */
export function PlaceForReal({
  view,
}: {
  view: Pick<PositionView, "live" | "spread" | "side" | "lots" | "id">;
}) {
  if (view.live) return null;
  return (
    <TicketLink
      symbol={`${view.spread}_${view.side}`}
      lots={view.lots}
      positionId={view.id}
      label="Place for real"
      small
    />
  );
}
