import { type SpreadSymbol, spreadSymbolLabel } from "@spreadwatch/core";
import { useLocation } from "wouter";
import type { ChartNavigationState } from "../../hooks/chart/useChartSelection.ts";
import { spreadInputs } from "../../market/inputMarks.ts";
import { legProblems } from "../../market/legProblems.ts";
import { BottomSheet } from "../ui/BottomSheet.tsx";
import { RowDetails } from "./RowDetails.tsx";
import type { SpreadTableProps } from "./SpreadTable.tsx";
import { cannotComputeTitle } from "./SpreadTableRow.tsx";

export function rowDetailsTitle(symbol: SpreadSymbol): string {
  return `${spreadSymbolLabel(symbol)} · ${symbol}`;
}

export interface RowDetailsSheetProps extends SpreadTableProps {
  symbol: SpreadSymbol;
  onClose: () => void;
}

/** The tapped row's details, live: the sheet follows the snapshot while it is open. */
export function RowDetailsSheet({
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
