import {
  type Calculations,
  instrument,
  type Prices,
  SIDES,
  SPREAD_TABLE_GROUPS,
  type SpreadSymbol,
} from "@spreadwatch/core";
import { useSpreadRowLayout } from "../../hooks/market/useSpreadRowLayout.ts";
import type { FreshnessContext } from "../../market/freshness.ts";
import { MAX_BELLS } from "../alerts/AlertBells.tsx";
import type { RowAlerts } from "../alerts/rowAlerts.ts";
import { LazyDialog } from "../app/LazyBoundary.tsx";
import { Panel } from "../ui/Panel.tsx";
import { type Column, TableHead } from "../ui/TableHead.tsx";
import { RowDetailsSheet } from "./lazySheets.ts";
import { SpreadTableRow } from "./SpreadTableRow.tsx";

/** What the Spread table reads of the market: the same for its rows and its details sheet. */
export interface SpreadTableProps {
  prices: Prices;
  calculations: Calculations;
  /** The Alerts column's bells; absent for users without alerts_enabled. */
  alerts?: RowAlerts;
  freshness: FreshnessContext;
}

const SPREAD_COLUMNS: readonly Column[] = [
  { label: "Symbol" },
  { label: "Spread", num: true },
  { label: "Net / lot (₹)", num: true, wide: true, title: "Net of round-trip costs, one lot" },
  { label: "z", num: true, wide: true, title: "z-score against the 20-day 1-minute closes" },
  { label: "CME", num: true, wide: true },
  { label: "MCX", num: true, wide: true },
  { label: "Alerts" },
];

/** docs/spec.md §2 "Spread table": a group per commodity, a BUY and a SELL row in each. */
export function SpreadTable(props: SpreadTableProps) {
  const { prices, calculations, alerts, freshness } = props;
  const { details, closeDetails, row } = useSpreadRowLayout<SpreadSymbol>(MAX_BELLS);
  return (
    <Panel title="Spread" className="panel--spread">
      <table className="data-table" aria-label="Spread">
        <TableHead columns={SPREAD_COLUMNS} />
        {SPREAD_TABLE_GROUPS.map((id) => (
          <tbody key={id} data-group={id}>
            <tr className="group-row">
              <th scope="rowgroup" colSpan={7}>
                {instrument(id).name}
              </th>
            </tr>
            {SIDES.map((side) => {
              const symbol = `${id}_${side}` as const;
              return (
                <SpreadTableRow
                  key={symbol}
                  symbol={symbol}
                  entry={calculations[symbol]}
                  prices={prices}
                  alerts={alerts}
                  freshness={freshness}
                  {...row}
                />
              );
            })}
          </tbody>
        ))}
      </table>
      {details && (
        <LazyDialog what="sheet">
          <RowDetailsSheet {...props} symbol={details} onClose={closeDetails} />
        </LazyDialog>
      )}
    </Panel>
  );
}
