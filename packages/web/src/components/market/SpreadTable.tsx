import {
  type Calculations,
  instrument,
  type Prices,
  SIDES,
  SPREAD_TABLE_GROUPS,
  type SpreadSymbol,
} from "@spreadwatch/core";
import { useState } from "react";
import { useLocation } from "wouter";
import type { ChartNavigationState } from "../../hooks/chart/useChartSelection.ts";
import { useMediaQuery, useTapForDetails } from "../../hooks/ui/useMediaQuery.ts";
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

interface SpreadTableProps {
  prices: Prices;
  calculations: Calculations;
  /** The Alerts column's bells; absent for users without alerts_enabled. */
  alerts?: RowAlerts;
  freshness: FreshnessContext;
}

/** Phones: CME, MCX (and any other wide column) move into the row's details sheet. */
const COMPACT_TABLE = "(max-width: 480px)";
/** Narrow tablets keep every column, with room for one alert button: more fold into a count. */
const FEW_BELLS = "(max-width: 640px)";

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
export function SpreadTable({ prices, calculations, alerts, freshness }: SpreadTableProps) {
  const tapForDetails = useTapForDetails();
  const compact = useMediaQuery(COMPACT_TABLE);
  const maxBells = useMediaQuery(FEW_BELLS) ? 1 : MAX_BELLS;
  const [details, setDetails] = useState<SpreadSymbol>();
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
                  onDetails={tapForDetails ? setDetails : undefined}
                  onAlertList={setDetails}
                  maxBells={maxBells}
                  compact={compact}
                />
              );
            })}
          </tbody>
        ))}
      </table>
      {details && (
        <RowDetailsSheet
          symbol={details}
          prices={prices}
          calculations={calculations}
          alerts={alerts}
          freshness={freshness}
          onClose={() => setDetails(undefined)}
        />
      )}
    </Panel>
  );
}

interface RowDetailsSheetProps {
  symbol: SpreadSymbol;
  prices: Prices;
  calculations: Calculations;
  alerts?: RowAlerts;
  freshness: FreshnessContext;
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
