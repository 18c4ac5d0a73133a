import {
  type Calculations,
  instrument,
  type Prices,
  SIDES,
  SPREAD_TABLE_GROUPS,
  type SpreadSymbol,
} from "@spreadwatch/core";
import { useLocation } from "wouter";
import type { ChartNavigationState } from "../../hooks/chart/useChartSelection.ts";
import { useSpreadRowLayout } from "../../hooks/market/useSpreadRowLayout.ts";
import type { FreshnessContext } from "../../market/freshness.ts";
import { spreadInputs } from "../../market/inputMarks.ts";
import { legProblems } from "../../market/legProblems.ts";
import { MAX_BELLS } from "../alerts/AlertBells.tsx";
import type { RowAlerts } from "../alerts/rowAlerts.ts";
import { BottomSheet } from "../ui/BottomSheet.tsx";
import { Panel } from "../ui/Panel.tsx";
import { type Column, TableHead } from "../ui/TableHead.tsx";
import { RowDetails, rowDetailsTitle } from "./RowDetails.tsx";
import { cannotComputeTitle, SpreadTableRow } from "./SpreadTableRow.tsx";

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
      {details && <RowDetailsSheet {...props} symbol={details} onClose={closeDetails} />}
    </Panel>
  );
}

interface RowDetailsSheetProps extends SpreadTableProps {
  symbol: SpreadSymbol;
  onClose: () => void;
}

/** The tapped row's details, live: the sheet follows the snapshot while it is open. */
function RowDetailsSheet({
  symbol,
  prices,
  calculations,
  alerts,
  freshness,
  onClose,
}: RowDetailsSheetProps) {
  const [, navigate] = useLocation();
  const entry = calculations[symbol];
  const missing = entry
    ? undefined
    : cannotComputeTitle(symbol, prices, legProblems(spreadInputs(symbol, prices), freshness));
  // The sheet closes before the alert modal opens: two modal dialogs would stack their backdrops.
  const thenClose = (action: () => void) => () => {
    onClose();
    action();
  };
  const chart: ChartNavigationState = { commodity: symbol };
  return (
    <BottomSheet title={rowDetailsTitle(symbol)} onClose={onClose}>
      <RowDetails
        symbol={symbol}
        entry={entry}
        prices={prices}
        missing={missing}
        alerts={alerts ? (alerts.bySymbol.get(symbol) ?? []) : undefined}
        onEditAlert={(alert) => alerts && thenClose(() => alerts.onEdit(symbol, alert))()}
        onAddAlert={thenClose(() => alerts?.onAdd(symbol))}
        onOpenChart={thenClose(() => navigate("/advanced-chart", { state: chart }))}
      />
    </BottomSheet>
  );
}
