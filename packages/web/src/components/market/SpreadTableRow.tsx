import {
  type CalculationEntry,
  cmePriceDecimals,
  mcxPriceDecimals,
  type Prices,
  type SpreadSymbol,
  spreadDecimals,
} from "@spreadwatch/core";
import { memo } from "react";
import type { ChartNavigationState } from "../../hooks/chart/useChartSelection.ts";
import type { SpreadRowLayout } from "../../hooks/market/useSpreadRowLayout.ts";
import { useSpreadStats } from "../../hooks/market/useSpreadStats.ts";
import { useRowOpen } from "../../hooks/ui/useRowOpen.ts";
import type { FreshnessContext } from "../../market/freshness.ts";
import { spreadInputs } from "../../market/inputMarks.ts";
import { type LegProblem, legsState } from "../../market/legProblems.ts";
import { sameSpreadRow } from "../../market/sameRow.ts";
import { missingInputs, parityBreakdown, rowPrices } from "../../market/spreadInputs.ts";
import { RowAlertsCell } from "../alerts/RowAlertsCell.tsx";
import type { RowAlerts } from "../alerts/rowAlerts.ts";
import { ScreenLink } from "../app/ScreenLink.tsx";
import { LegWarning } from "./LegWarning.tsx";
import { NetPerLotCell } from "./NetPerLotCell.tsx";
import { PriceCell } from "./PriceCell.tsx";
import { SpreadValue } from "./SpreadValue.tsx";
import { ZScoreCell } from "./ZScoreCell.tsx";

interface SpreadTableRowProps extends SpreadRowLayout<SpreadSymbol> {
  symbol: SpreadSymbol;
  entry: CalculationEntry | undefined;
  prices: Prices;
  alerts?: RowAlerts;
  freshness: FreshnessContext;
}

/** "Cannot compute: no MCX NATURALGAS bid", or the crossed book that stopped the server. */
export function cannotComputeTitle(
  symbol: SpreadSymbol,
  prices: Prices,
  problems: LegProblem[],
): string {
  const missing = missingInputs(symbol, prices);
  const reasons = [
    ...(missing.length > 0 ? [`no ${missing.join(", ")}`] : []),
    ...problems.filter((problem) => problem.kind === "crossed").map((problem) => problem.text),
  ];
  return reasons.length > 0 ? `Cannot compute: ${reasons.join("; ")}` : "Cannot compute right now";
}

/**
 * A row renders again only when what it shows changed: its entry, its legs' quotes, the time
 * (freshness ticks each second) or its layout and alerts. A stream message touches a few
 * instruments, not the twenty rows (docs/architecture.md, "The dashboard's renders").
 */
export const SpreadTableRow = memo(SpreadTableRowView, sameSpreadRow);

function SpreadTableRowView({
  symbol,
  entry,
  prices,
  alerts,
  freshness,
  onDetails,
  onAlertList,
  maxBells,
  compact,
}: SpreadTableRowProps) {
  // Phones hide the z column; the same 20-day z rides beside the spread as a chip.
  const stats = useSpreadStats(symbol);
  // Without an entry the book may still hold one leg; showing it tells the trader which is absent.
  const shown = entry ?? rowPrices(symbol, prices);
  const inputs = spreadInputs(symbol, prices);
  // A stale, crossed or missing leg greys the row: its spread is not one to act on.
  const { problems, marks, greyed, data } = legsState(inputs, freshness, entry !== undefined);
  const missing = entry ? undefined : cannotComputeTitle(symbol, prices, problems);
  const chart: ChartNavigationState = { commodity: symbol };
  const open = useRowOpen(symbol, onDetails);
  return (
    <tr
      data-symbol={symbol}
      {...data}
      title={onDetails ? undefined : entry ? parityBreakdown(entry) : missing}
      className={greyed ? "row--chart row--greyed" : "row--chart"}
      onClick={open}
    >
      <th scope="row" className="symbol">
        {onDetails ? (
          <button type="button" className="symbol__details" onClick={() => onDetails(symbol)}>
            {symbol}
          </button>
        ) : (
          <ScreenLink href="/advanced-chart" state={chart} className="symbol__chart-link">
            {symbol}
          </ScreenLink>
        )}
        <LegWarning problems={problems} />
      </th>
      <SpreadValue
        value={entry?.spread}
        decimals={spreadDecimals(symbol)}
        missingTitle={missing}
        marks={marks}
        z={compact ? (stats?.z ?? undefined) : undefined}
      />
      <NetPerLotCell symbol={symbol} entry={entry} />
      <ZScoreCell symbol={symbol} />
      <PriceCell col="cme" value={shown.cme} decimals={cmePriceDecimals(symbol)} wide />
      <PriceCell col="mcx" value={shown.mcx} decimals={mcxPriceDecimals(symbol)} wide />
      <RowAlertsCell
        symbol={symbol}
        alerts={alerts}
        compact={compact}
        onDetails={onDetails}
        onAlertList={onAlertList}
        maxBells={maxBells}
      />
    </tr>
  );
}
