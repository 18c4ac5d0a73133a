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
import type { FreshnessContext } from "../market/freshness.ts";
import { inputMarks, spreadInputs } from "../market/inputMarks.ts";
import { type LegProblem, legProblems } from "../market/legProblems.ts";
import { missingInputs, parityBreakdown, rowPrices } from "../market/spreadInputs.ts";
import { AlertBells } from "./alerts/AlertBells.tsx";
import type { RowAlerts } from "./alerts/rowAlerts.ts";
import { LegWarning } from "./LegWarning.tsx";
import { NetPerLotCell } from "./NetPerLotCell.tsx";
import { PriceCell } from "./PriceCell.tsx";
import { SpreadValue } from "./SpreadValue.tsx";
import { ZScoreCell } from "./ZScoreCell.tsx";

interface SpreadTableRowProps {
  symbol: SpreadSymbol;
  entry: CalculationEntry | undefined;
  prices: Prices;
  alerts?: RowAlerts;
  freshness: FreshnessContext;
}

/** "Cannot compute: no MCX NATURALGAS bid", or the crossed book that stopped the server. */
function cannotComputeTitle(symbol: SpreadSymbol, prices: Prices, problems: LegProblem[]): string {
  const missing = missingInputs(symbol, prices);
  const reasons = [
    ...(missing.length > 0 ? [`no ${missing.join(", ")}`] : []),
    ...problems.filter((problem) => problem.kind === "crossed").map((problem) => problem.text),
  ];
  return reasons.length > 0 ? `Cannot compute: ${reasons.join("; ")}` : "Cannot compute right now";
}

export function SpreadTableRow({ symbol, entry, prices, alerts, freshness }: SpreadTableRowProps) {
  // Without an entry the book may still hold one leg; showing it tells the trader which is absent.
  const shown = entry ?? rowPrices(symbol, prices);
  const inputs = spreadInputs(symbol, prices);
  const marks = inputMarks(inputs);
  // A stale, crossed or missing leg greys the row: its spread is not one to act on.
  const problems = legProblems(inputs, freshness);
  const missing = entry ? undefined : cannotComputeTitle(symbol, prices, problems);
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
      data-greyed={problems.length > 0 || undefined}
      title={entry ? parityBreakdown(entry) : missing}
      className={problems.length > 0 ? "row--chart row--greyed" : "row--chart"}
      onClick={openChart}
    >
      <th scope="row" className="symbol">
        <Link href="/advanced-chart" state={chart} className="symbol__chart-link">
          {symbol}
        </Link>
        <LegWarning problems={problems} />
      </th>
      <SpreadValue
        value={entry?.spread}
        decimals={spreadDecimals(symbol)}
        missingTitle={missing}
        marks={marks}
      />
      <NetPerLotCell symbol={symbol} entry={entry} />
      <ZScoreCell symbol={symbol} />
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
