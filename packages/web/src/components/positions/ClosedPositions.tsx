import { useMemo } from "react";
import {
  useClosedPositions,
  useOpenPositions,
  usePositionSummary,
} from "../../hooks/positions/usePositions.ts";
import { failureText } from "../../session/errors.ts";
import { Message } from "../ui/Message.tsx";
import { Panel } from "../ui/Panel.tsx";
import { ClosedSummaryLine, type ClosedTradeRow, ClosedTradesTable } from "./ClosedTrades.tsx";

/** docs/user-guide.md "Positions (paper)": one line per close (CSV: /api/positions/closed.csv). */
export const CLOSED_CSV_PATH = "/api/positions/closed.csv";

/** Closed trades, their summary and the CSV export. */
export function ClosedPositions() {
  const closed = useClosedPositions();
  // A partial close of a position still open is a closed trade too: its closes ride on its row.
  const open = useOpenPositions();
  const summary = usePositionSummary();
  const rows = useMemo<ClosedTradeRow[]>(
    () =>
      [...open.positions, ...(closed.data?.positions ?? [])]
        .flatMap((position) =>
          position.closes.map((close) => ({
            id: close.id,
            positionId: position.id,
            name: position.name,
            spread: position.spread,
            side: position.side,
            lots: close.lots,
            entry: position.entry,
            exit: close.exit,
            realisedInr: close.realisedInr,
            openedAt: position.openedAt,
            closedAt: close.closedAt,
            reason: close.reason,
            live: position.live,
          })),
        )
        .sort((a, b) => b.closedAt - a.closedAt),
    [open.positions, closed.data],
  );
  return (
    <Panel
      title="Closed trades"
      className="panel--closed-trades"
      note={
        <div className="my-spreads__bar">
          {rows.length > 0 ? (
            <a className="button button--small" href={CLOSED_CSV_PATH} download>
              Export CSV
            </a>
          ) : (
            // A link cannot be disabled; with no trade there is no file worth saving.
            <button type="button" className="button button--small" disabled>
              Export CSV
            </button>
          )}
        </div>
      }
    >
      <ClosedSummaryLine summary={summary.data} />
      {closed.isError ? (
        <Message tone="error">
          {failureText(closed.error, { fallback: "Failed to load closed trades" })}
        </Message>
      ) : closed.isPending ? (
        <p className="loading">Loading closed trades…</p>
      ) : (
        <ClosedTradesTable rows={rows} />
      )}
    </Panel>
  );
}
