import { formatNumber } from "@spreadwatch/core";
import type { LivePosition, PositionTotals } from "../../hooks/usePositions.ts";
import { CostsFigure } from "./CostsBreakdown.tsx";
import { daysText, plainRupees, signedPercent } from "./format.ts";
import {
  MarginFigure,
  MarkFigure,
  NetFigure,
  ReturnFigure,
  Rupees,
  spreadText,
  targetStopLines,
  targetStopText,
} from "./PositionFigures.tsx";

export interface PositionActions {
  onClose: (position: LivePosition) => void;
  onRoll: (position: LivePosition) => void;
  onEdit: (position: LivePosition) => void;
  /** The position whose roll is under way: its button waits. */
  rolling?: number;
}

/** "Expires in 3 days" (or "GOLD26DECFUT rolled" once the feed moved on) with Roll. */
export function ExpiryBadge({
  position,
  actions,
}: {
  position: LivePosition;
  actions: PositionActions;
}) {
  const days = position.moved ? 0 : position.view.expiresInDays;
  if (days === null || days === undefined) return null;
  return (
    <span className="position-expiry" data-field="expiry">
      {position.moved
        ? `${position.moved.from} rolled`
        : days === 0
          ? "Expires today"
          : `Expires in ${days} ${days === 1 ? "day" : "days"}`}{" "}
      <button
        type="button"
        className="button button--small"
        disabled={actions.rolling === position.view.id}
        onClick={() => actions.onRoll(position)}
      >
        {actions.rolling === position.view.id ? "Rolling…" : "Roll"}
      </button>
    </span>
  );
}

/** Desktop: one row per open position, with the totals under them. */
export function PositionsTable({
  positions,
  totals,
  actions,
}: {
  positions: readonly LivePosition[];
  totals: PositionTotals;
  actions: PositionActions;
}) {
  return (
    <table className="data-table positions-table" aria-label="Open positions">
      <thead>
        <tr>
          <th scope="col">Position</th>
          <th scope="col" className="num">
            Entry
          </th>
          <th scope="col" className="num" title="The executable exit: SELL for a BUY position">
            Mark
          </th>
          <th scope="col" className="num">
            Gross
          </th>
          <th scope="col" className="num" title="Round trip of every lot, entry and exit">
            Costs
          </th>
          <th scope="col" className="num">
            Net ₹
          </th>
          <th scope="col" className="num" title="Change since the day's first minute (IST)">
            Today
          </th>
          <th scope="col" className="num">
            Margin
          </th>
          <th scope="col" className="num" title="Net ₹ ÷ margin; annualised by days held">
            Return on margin
          </th>
          <th scope="col" className="num">
            Held
          </th>
          <th scope="col">Target / stop</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {positions.map((position) => (
          <PositionRow key={position.view.id} position={position} actions={actions} />
        ))}
      </tbody>
      <tfoot>
        <tr className="positions-table__totals" data-row="totals">
          <th scope="row">
            Total · {formatNumber(positions.length, 0)}{" "}
            {positions.length === 1 ? "position" : "positions"}
          </th>
          <td />
          <td />
          <td className="num">
            <Rupees value={totals.grossInr} field="total-gross" />
          </td>
          <td className="num">{plainRupees(totals.costsInr)}</td>
          <td className="num">
            <Rupees value={totals.netInr} field="total-net" />
          </td>
          <td className="num">
            <Rupees value={totals.changeTodayInr} field="total-today" />
          </td>
          <td className="num">{plainRupees(totals.marginInr)}</td>
          <td className="num" data-field="total-return">
            {signedPercent(totals.returnOnMargin)}
          </td>
          <td colSpan={3} />
        </tr>
      </tfoot>
    </table>
  );
}

function PositionRow({ position, actions }: { position: LivePosition; actions: PositionActions }) {
  const { view } = position;
  return (
    <tr
      data-position={view.id}
      data-spread={view.spread}
      data-stale={position.stale || undefined}
      className={position.stale ? "row--greyed" : undefined}
    >
      <th scope="row" className="position-name">
        <span className={`position-side position-side--${view.side.toLowerCase()}`}>
          {view.side}
        </span>{" "}
        <span data-field="lots">{view.lots}</span> × {view.name}{" "}
        <span className="my-spreads__symbol">{view.spread}</span>
        {view.note && <small className="position-sub position-note">{view.note}</small>}
        <ExpiryBadge position={position} actions={actions} />
      </th>
      <td className="num" data-field="entry">
        {spreadText(view.entry)}
      </td>
      <td className="num">
        <MarkFigure position={position} />
      </td>
      <td className="num">
        <Rupees value={position.grossInr} field="gross" />
      </td>
      <td className="num" data-field="costs">
        <CostsFigure view={view} costsInr={position.costsInr} />
      </td>
      <td className="num">
        <NetFigure position={position} />
      </td>
      <td className="num">
        <Rupees value={position.changeTodayInr} field="today" />
      </td>
      <td className="num">
        <MarginFigure view={view} />
      </td>
      <td className="num">
        <ReturnFigure position={position} />
      </td>
      <td className="num" data-field="held">
        {daysText(position.daysHeld)}
      </td>
      <td data-field="target-stop">
        <button
          type="button"
          className="link-button position-target-stop"
          aria-label={`Target and stop: ${targetStopText(view)}; edit`}
          onClick={() => actions.onEdit(position)}
        >
          {targetStopLines(view).map((line) => (
            <span key={line}>{line}</span>
          ))}
        </button>
      </td>
      <td className="positions-table__actions">
        <button
          type="button"
          className="button button--small"
          onClick={() => actions.onClose(position)}
        >
          Close
        </button>
      </td>
    </tr>
  );
}
