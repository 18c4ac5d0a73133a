import type { LivePosition } from "../../hooks/positions/usePositions.ts";
import { Term } from "../ui/Term.tsx";
import { LiveBadge, LiveFills, NetFigure, targetStopText } from "./PositionFigures.tsx";
import {
  CloseAndPlace,
  ExpiryBadge,
  headingOf,
  type OpenPositionsProps,
  POSITION_FIGURES,
  type PositionActions,
  TOTAL_FIGURES,
} from "./PositionsTable.tsx";

/** The totals card's figures: what a phone has room for, in the table's order. */
const CARD_TOTALS = [
  ["net", "Net ₹"],
  ["today", "Today"],
  ["margin", "Margin"],
  ["return", "Return"],
] as const;

/** A phone: the totals first, then a card per position with every figure the table has. */
export function PositionCards({ positions, totals, actions }: OpenPositionsProps) {
  return (
    <div className="position-cards">
      <dl className="position-card position-card--totals row-details__facts" data-row="totals">
        {CARD_TOTALS.map(([column, label]) => (
          <Term key={column} label={label}>
            {TOTAL_FIGURES[column](totals)}
          </Term>
        ))}
      </dl>
      <ul className="position-cards__list" aria-label="Open positions">
        {positions.map((position) => (
          <PositionCard key={position.view.id} position={position} actions={actions} />
        ))}
      </ul>
    </div>
  );
}

function PositionCard({ position, actions }: { position: LivePosition; actions: PositionActions }) {
  const { view } = position;
  return (
    <li
      className={position.stale ? "position-card row--greyed" : "position-card"}
      data-position={view.id}
      data-spread={view.spread}
      data-stale={position.stale || undefined}
    >
      <header className="position-card__header">
        <span className="position-name">
          <span className={`position-side position-side--${view.side.toLowerCase()}`}>
            {view.side}
          </span>{" "}
          <span data-field="lots">{view.lots}</span> × {view.name}
          <LiveBadge live={view.live} />
        </span>
        <NetFigure position={position} />
      </header>
      <LiveFills view={view} />
      {view.note && <p className="position-sub position-note">{view.note}</p>}
      <ExpiryBadge position={position} actions={actions} />
      <dl className="row-details__facts position-card__facts">
        {POSITION_FIGURES.filter((figure) => figure.column !== "net").map((figure) => (
          <Term key={figure.column} label={figure.card ?? headingOf(figure.column)}>
            {figure.field ? (
              <span data-field={figure.field}>{figure.render(position)}</span>
            ) : (
              figure.render(position)
            )}
          </Term>
        ))}
      </dl>
      <div className="position-card__actions">
        <button
          type="button"
          className="link-button"
          data-field="target-stop"
          onClick={() => actions.onEdit(position)}
        >
          Target / stop: {targetStopText(view)}
        </button>
        <CloseAndPlace position={position} actions={actions} />
      </div>
    </li>
  );
}
