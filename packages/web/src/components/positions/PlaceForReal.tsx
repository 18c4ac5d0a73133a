import type { PositionView } from "../../hooks/positions/usePositions.ts";
import { TicketLink } from "../market/TicketLink.tsx";

/**
 * A paper position's "Place for real": the ticket for its spread, side and lots. A live one's
 * "Add": the ticket for one more lot on its side, whose fills go into it (docs/user-guide.md
 * "Live orders").
 */
export function PlaceForReal({
  view,
}: {
  view: Pick<PositionView, "live" | "spread" | "side" | "lots" | "id">;
}) {
  if (view.live)
    return (
      <TicketLink
        symbol={`${view.spread}_${view.side}`}
        lots={1}
        positionId={view.id}
        label="Add to live"
        small
      />
    );
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
