import { type ClosedSummary, formatIstTimestamp, formatNumber } from "@spreadwatch/core";
import { type Column, TableHead } from "../ui/TableHead.tsx";
import { Term } from "../ui/Term.tsx";
import { holdingText } from "./format.ts";
import { LiveBadge, Rupees, spreadText } from "./PositionFigures.tsx";

/** One close of a position: a whole or partial exit, or the close of a roll. */
export interface ClosedTradeRow {
  id: number;
  positionId: number;
  name: string;
  spread: string;
  side: "BUY" | "SELL";
  lots: number;
  entry: number;
  exit: number;
  realisedInr: number;
  openedAt: number;
  closedAt: number;
  reason: "close" | "roll";
  /** Opened by real fills through Kite. */
  live: boolean;
}

/** The summary line over every close: net total, win rate, average holding time, best, worst. */
export function ClosedSummaryLine({ summary }: { summary: ClosedSummary | undefined }) {
  if (!summary || summary.trades === 0) return null;
  return (
    <dl className="row-details__facts positions-summary" data-field="closed-summary">
      <Term label="Net">
        <Rupees value={summary.netInr} field="summary-net" />
      </Term>
      <Term label="Trades" field="summary-trades">
        {formatNumber(summary.trades, 0)}
      </Term>
      <Term label="Win rate" field="summary-win-rate">
        {summary.winRate === null ? "—" : `${formatNumber(summary.winRate * 100, 0)} %`}
      </Term>
      <Term label="Avg held">{holdingText(summary.averageHoldingMs)}</Term>
      <Term label="Best">
        <Rupees value={summary.best} field="summary-best" />
      </Term>
      <Term label="Worst">
        <Rupees value={summary.worst} field="summary-worst" />
      </Term>
    </dl>
  );
}

const CLOSED_COLUMNS: readonly Column[] = [
  { label: "Trade" },
  { label: "Entry", num: true, wide: true },
  { label: "Exit", num: true, wide: true },
  { label: "Realised ₹", num: true },
  { label: "Closed", wide: true },
  { label: "Held", num: true, wide: true },
];

/** Every close, newest first; on a phone the wide columns hide like the Spread table's. */
export function ClosedTradesTable({ rows }: { rows: readonly ClosedTradeRow[] }) {
  if (rows.length === 0) {
    return <p className="muted my-spreads__empty">No closed trades yet.</p>;
  }
  return (
    <table className="data-table closed-trades" aria-label="Closed trades">
      <TableHead columns={CLOSED_COLUMNS} />
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-close={row.id} data-position={row.positionId}>
            <th scope="row">
              {row.side} {row.lots} × {row.name}
              <LiveBadge live={row.live} />
              {row.reason === "roll" && <span className="my-spreads__badge">Rolled</span>}
            </th>
            <td className="num col--wide">{spreadText(row.entry)}</td>
            <td className="num col--wide">{spreadText(row.exit)}</td>
            <td className="num">
              <Rupees value={row.realisedInr} field="realised" />
            </td>
            <td className="col--wide">{formatIstTimestamp(row.closedAt)}</td>
            <td className="num col--wide">{holdingText(row.closedAt - row.openedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
