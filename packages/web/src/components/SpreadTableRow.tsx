import {
  type CalculationEntry,
  cmePriceDecimals,
  mcxPriceDecimals,
  type Prices,
  type SpreadSymbol,
  spreadDecimals,
} from "@spreadwatch/core";
import type { MouseEvent } from "react";
import { Link, useLocation } from "wouter";
import type { ChartNavigationState } from "../hooks/useChartSelection.ts";
import { inputMarks, spreadInputs } from "../market/inputMarks.ts";
import { missingInputs, parityBreakdown, rowPrices } from "../market/spreadInputs.ts";
import { AlertBells } from "./alerts/AlertBells.tsx";
import type { RowAlerts } from "./alerts/rowAlerts.ts";
import { PriceCell } from "./PriceCell.tsx";
import { SpreadValue } from "./SpreadValue.tsx";

interface SpreadTableRowProps {
  symbol: SpreadSymbol;
  entry: CalculationEntry | undefined;
  prices: Prices;
  alerts?: RowAlerts;
}

export function SpreadTableRow({ symbol, entry, prices, alerts }: SpreadTableRowProps) {
  // Without an entry the book may still hold one leg; showing it tells the trader which is absent.
  const shown = entry ?? rowPrices(symbol, prices);
  const missing = entry
    ? undefined
    : `Cannot compute: no ${missingInputs(symbol, prices).join(", ")}`;
  const marks = inputMarks(spreadInputs(symbol, prices));
  // Clicking a row opens its chart (issue 5); the symbol is the link keyboards reach.
  const [, navigate] = useLocation();
  const chart: ChartNavigationState = { commodity: symbol };
  const openChart = (event: MouseEvent<HTMLTableRowElement>) => {
    const target = event.target;
    // Controls in the row keep their own clicks, and so do portals (a bell's tooltip).
    if (!(target instanceof Element) || !event.currentTarget.contains(target)) return;
    if (target.closest("a, button, input, select")) return;
    navigate("/advanced-chart", { state: chart });
  };
  return (
    <tr
      data-symbol={symbol}
      data-delayed={(entry !== undefined && marks.delayed !== undefined) || undefined}
      title={entry ? parityBreakdown(entry) : missing}
      className="row--chart"
      onClick={openChart}
    >
      <th scope="row" className="symbol">
        <Link href="/advanced-chart" state={chart} className="symbol__chart-link">
          {symbol}
        </Link>
      </th>
      <SpreadValue
        value={entry?.spread}
        decimals={spreadDecimals(symbol)}
        missingTitle={missing}
        marks={marks}
      />
      <PriceCell col="cme" value={shown.cme} decimals={cmePriceDecimals(symbol)} />
      <PriceCell col="mcx" value={shown.mcx} decimals={mcxPriceDecimals(symbol)} />
      {alerts ? (
        <td className="alerts" data-col="alerts">
          <AlertBells
            alerts={alerts.bySymbol.get(symbol) ?? []}
            onEdit={(alert) => alerts.onEdit(symbol, alert)}
            onAdd={() => alerts.onAdd(symbol)}
          />
        </td>
      ) : (
        <td className="alerts muted" data-col="alerts">
          No alerts
        </td>
      )}
    </tr>
  );
}
