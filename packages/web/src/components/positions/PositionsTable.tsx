import { ANNUALISE_FROM_DAYS, formatNumber } from "@spreadwatch/core";
import { Fragment, type ReactNode } from "react";
import type { LivePosition, PositionTotals } from "../../hooks/positions/usePositions.ts";
import { type SortValue, useSort } from "../../hooks/ui/useSort.ts";
import { CostsFigure } from "./CostsBreakdown.tsx";
import { daysText, plainRupees } from "./format.ts";
import { PlaceForReal } from "./PlaceForReal.tsx";
import {
  LiveBadge,
  LiveFills,
  MarginFigure,
  MarkFigure,
  NetFigure,
  ReturnFigure,
  ReturnPercent,
  Rupees,
  spreadText,
  targetStopLines,
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

export type Column =
  | "position"
  | "entry"
  | "mark"
  | "gross"
  | "costs"
  | "net"
  | "today"
  | "margin"
  | "return"
  | "held";

/** What each sortable column sorts by: the number behind its text. */
function sortValue(position: LivePosition, column: Column): SortValue {
  switch (column) {
    case "position":
      return position.view.name;
    case "entry":
      return position.view.entry;
    case "mark":
      return position.mark;
    case "gross":
      return position.grossInr;
    case "costs":
      return position.costsInr;
    case "net":
      return position.netInr;
    case "today":
      return position.changeTodayInr;
    case "margin":
      return position.view.margin?.inr;
    case "return":
      return position.returnOnMargin;
    case "held":
      return position.daysHeld;
  }
}

const HEADERS: { column: Column; label: string; title?: string; numeric: boolean }[] = [
  { column: "position", label: "Position", numeric: false },
  { column: "entry", label: "Entry", numeric: true },
  {
    column: "mark",
    label: "Mark",
    title: "The executable exit: SELL for a BUY position",
    numeric: true,
  },
  { column: "gross", label: "Gross", numeric: true },
  {
    column: "costs",
    label: "Costs",
    title: "Round trip of every lot, entry and exit",
    numeric: true,
  },
  { column: "net", label: "Net ₹", numeric: true },
  {
    column: "today",
    label: "Today",
    title: "Change since the day's first minute (IST)",
    numeric: true,
  },
  { column: "margin", label: "Margin", numeric: true },
  {
    column: "return",
    label: "Return on margin",
    title: `Net ₹ ÷ margin; annualised by days held from ${ANNUALISE_FROM_DAYS} days on`,
    numeric: true,
  },
  { column: "held", label: "Held", numeric: true },
];

/** What the open positions' two views draw: the table on a desktop, the cards on a phone. */
export interface OpenPositionsProps {
  positions: readonly LivePosition[];
  totals: PositionTotals;
  actions: PositionActions;
}

/** Desktop: one row per open position, sortable by any figure, with the totals under them. */
export function PositionsTable({ positions, totals, actions }: OpenPositionsProps) {
  const sorting = useSort<Column, LivePosition>(positions, sortValue);
  return (
    <table className="data-table positions-table" aria-label="Open positions">
      <thead>
        <tr>
          {HEADERS.map(({ column, label, title, numeric }) => (
            <th
              key={column}
              scope="col"
              className={numeric ? "num" : undefined}
              title={title}
              aria-sort={sorting.ariaSort(column)}
              data-sort={column}
            >
              <button
                type="button"
                className="sort-button"
                onClick={() => sorting.toggle(column, numeric ? "descending" : "ascending")}
              >
                {label}
                <span className="sort-button__arrow" aria-hidden="true">
                  {sorting.state.key !== column
                    ? ""
                    : sorting.state.direction === "ascending"
                      ? " ▲"
                      : " ▼"}
                </span>
              </button>
            </th>
          ))}
          <th scope="col">Target / stop</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {sorting.sorted.map((position) => (
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
          {TOTAL_COLUMNS.map((column) => (
            <td key={column} className="num">
              {TOTAL_FIGURES[column](totals)}
            </td>
          ))}
          <td colSpan={3} />
        </tr>
      </tfoot>
    </table>
  );
}

/**
 * An open position's figures, in the table's column order after Position: the table's cells and
 * the phone card's facts (PositionCards.tsx, which shows Net in its header instead) are the same.
 */
export const POSITION_FIGURES: readonly {
  column: Exclude<Column, "position">;
  /** The card's label where the column's heading alone would be unclear. */
  card?: string;
  /** The data-field the figure's cell or fact carries, where the figure has none itself. */
  field?: string;
  render: (position: LivePosition) => ReactNode;
}[] = [
  { column: "entry", field: "entry", render: (p) => spreadText(p.view.entry) },
  { column: "mark", render: (p) => <MarkFigure position={p} /> },
  { column: "gross", render: (p) => <Rupees value={p.grossInr} field="gross" /> },
  {
    column: "costs",
    field: "costs",
    render: (p) => <CostsFigure view={p.view} costsInr={p.costsInr} />,
  },
  { column: "net", render: (p) => <NetFigure position={p} /> },
  { column: "today", render: (p) => <Rupees value={p.changeTodayInr} field="today" /> },
  { column: "margin", render: (p) => <MarginFigure view={p.view} /> },
  { column: "return", card: "Return on margin", render: (p) => <ReturnFigure position={p} /> },
  { column: "held", field: "held", render: (p) => daysText(p.daysHeld) },
];

/**
 * The totals' figures by column: the cells of the table's footer and the facts of the phone's
 * totals card draw the same figures.
 */
export const TOTAL_FIGURES = {
  gross: (t: PositionTotals) => <Rupees value={t.grossInr} field="total-gross" />,
  costs: (t: PositionTotals) => plainRupees(t.costsInr),
  net: (t: PositionTotals) => <Rupees value={t.netInr} field="total-net" />,
  today: (t: PositionTotals) => <Rupees value={t.changeTodayInr} field="total-today" />,
  margin: (t: PositionTotals) => plainRupees(t.marginInr),
  return: (t: PositionTotals) => <ReturnPercent fraction={t.returnOnMargin} field="total-return" />,
} satisfies Partial<Record<Column, (totals: PositionTotals) => ReactNode>>;

/** The footer's figures, in the table's column order (entry and mark have no total). */
const TOTAL_COLUMNS = ["gross", "costs", "net", "today", "margin", "return"] as const;

/** A position's own actions, in its table row and on its phone card: Close, and placing it for real. */
export function CloseAndPlace({
  position,
  actions,
}: {
  position: LivePosition;
  actions: PositionActions;
}) {
  return (
    <>
      <button
        type="button"
        className="button button--small"
        onClick={() => actions.onClose(position)}
      >
        Close
      </button>
      <PlaceForReal view={position.view} />
    </>
  );
}

/** A column's heading. */
export function headingOf(column: Column): string {
  return HEADERS.find((header) => header.column === column)?.label ?? column;
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
        <LiveBadge live={view.live} />
        <LiveFills view={view} />
        {view.note && <small className="position-sub position-note">{view.note}</small>}
        <ExpiryBadge position={position} actions={actions} />
      </th>
      {POSITION_FIGURES.map((figure) => (
        <td key={figure.column} className="num" data-field={figure.field}>
          {figure.render(position)}
        </td>
      ))}
      <td data-field="target-stop">
        {/* Named by its own text (the visible words first heard as said, WCAG 2.5.3), the
            lines a space apart for the name though a grid stacks them. */}
        <button
          type="button"
          className="link-button position-target-stop"
          onClick={() => actions.onEdit(position)}
        >
          <span className="visually-hidden">Edit target and stop: </span>
          {targetStopLines(view).map((line, i) => (
            <Fragment key={line}>
              {i > 0 && " "}
              <span>{line}</span>
            </Fragment>
          ))}
        </button>
      </td>
      <td className="positions-table__actions">
        <CloseAndPlace position={position} actions={actions} />
      </td>
    </tr>
  );
}
