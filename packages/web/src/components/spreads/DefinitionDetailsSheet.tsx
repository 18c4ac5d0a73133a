import { parseExecutableSymbol } from "@spreadwatch/core";
import { useLocation } from "wouter";
import type { ChartNavigationState } from "../../hooks/chart/useChartSelection.ts";
import type { SpreadDefinitionView } from "../../hooks/market/useSpreadDefinitions.ts";
import { definitionEntry } from "../../market/definitionRows.ts";
import type { RowAlerts } from "../alerts/rowAlerts.ts";
import { BottomSheet } from "../ui/BottomSheet.tsx";
import { DefinitionDetails } from "./DefinitionDetails.tsx";

export interface DefinitionDetailsSheetProps {
  symbol: string;
  spreads: readonly SpreadDefinitionView[];
  calculations: Record<string, unknown>;
  alerts?: RowAlerts;
  onEdit: (spread: SpreadDefinitionView) => void;
  onClose: () => void;
}

/** A definition side's details in the bottom sheet, live while it is open. */
export function DefinitionDetailsSheet({
  symbol,
  spreads,
  calculations,
  alerts,
  ...props
}: DefinitionDetailsSheetProps) {
  const [, navigate] = useLocation();
  const parsed = parseExecutableSymbol(symbol);
  const spread = parsed && spreads.find((each) => each.symbol === parsed.symbol);
  if (!parsed || !spread) return null;
  const thenClose = (action: () => void) => () => {
    props.onClose();
    action();
  };
  const chart: ChartNavigationState = { commodity: symbol };
  return (
    <BottomSheet
      title={`${spread.name} ${parsed.side === "BUY" ? "Buy" : "Sell"} · ${symbol}`}
      onClose={props.onClose}
    >
      <DefinitionDetails
        spread={spread}
        side={parsed.side}
        entry={definitionEntry(calculations, symbol)}
        alerts={alerts ? (alerts.bySymbol.get(symbol) ?? []) : undefined}
        onEditAlert={(alert) => alerts && thenClose(() => alerts.onEdit(symbol, alert))()}
        onAddAlert={thenClose(() => alerts?.onAdd(symbol))}
        onOpenChart={thenClose(() => navigate("/advanced-chart", { state: chart }))}
        onEdit={spread.editable ? thenClose(() => props.onEdit(spread)) : undefined}
      />
    </BottomSheet>
  );
}
