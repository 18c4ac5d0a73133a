import { formatNumber, formatSigned, formulaShape, type Prices } from "@spreadwatch/core";
import { Fragment } from "react";
import type { ChartNavigationState } from "../../hooks/chart/useChartSelection.ts";
import type { SpreadDefinitionView } from "../../hooks/market/useSpreadDefinitions.ts";
import type { SpreadRowLayout } from "../../hooks/market/useSpreadRowLayout.ts";
import { useSpreadStats } from "../../hooks/market/useSpreadStats.ts";
import { useRowOpen } from "../../hooks/ui/useRowOpen.ts";
import {
  type DefinitionEntry,
  definitionDecimals,
  definitionInputs,
  legText,
} from "../../market/definitionRows.ts";
import type { FreshnessContext } from "../../market/freshness.ts";
import { inputMarks } from "../../market/inputMarks.ts";
import { type LegProblem, legProblems } from "../../market/legProblems.ts";
import { RowAlertsCell } from "../alerts/RowAlertsCell.tsx";
import type { RowAlerts } from "../alerts/rowAlerts.ts";
import { ScreenLink } from "../app/ScreenLink.tsx";
import { LegWarning } from "../market/LegWarning.tsx";
import { DefinitionNetPerLotCell } from "../market/NetPerLotCell.tsx";
import { SpreadValue } from "../market/SpreadValue.tsx";
import { ZScoreCell } from "../market/ZScoreCell.tsx";

interface MySpreadRowProps extends SpreadRowLayout<string> {
  spread: SpreadDefinitionView;
  side: "BUY" | "SELL";
  entry: DefinitionEntry | undefined;
  prices: Prices;
  alerts?: RowAlerts;
  freshness: FreshnessContext;
  /** Desk screens: the row's details (legs, statistics, Open position) on a button of its own. */
  onShowDetails: (symbol: string) => void;
  /** Some spread of the table has lots: the Net / lot column is shown. */
  withLots: boolean;
}

/** "Cannot compute: g (GOLD) ask missing; …", or the formula having no value (÷ 0). */
export function definitionMissingTitle(problems: LegProblem[]): string {
  const reasons = problems.filter((p) => p.kind !== "stale").map((p) => p.text);
  return reasons.length > 0
    ? `Cannot compute: ${reasons.join("; ")}`
    : "Cannot compute right now: the formula has no value at these prices";
}

/**
 * One side of a definition in My spreads, like a built-in Spread row: its value (greyed on a
 * stale, crossed or missing leg), mid, z and percentile, the legs it was taken at, its alerts.
 */
export function MySpreadRow(props: MySpreadRowProps) {
  const { spread, side, entry, prices, alerts, freshness, onDetails, compact } = props;
  const symbol = `${spread.symbol}_${side}`;
  const stats = useSpreadStats(symbol);
  const inputs = definitionInputs(spread.legs, entry, prices);
  const problems = legProblems(inputs, freshness);
  const marks = inputMarks(inputs);
  const decimals = definitionDecimals(entry?.mid ?? entry?.spread);
  const missing = entry ? undefined : definitionMissingTitle(problems);
  const chart: ChartNavigationState = { commodity: symbol };
  const open = useRowOpen(symbol, onDetails);
  const legs = spread.legs.map((leg) => legText(leg.name, entry?.legs[leg.name]));
  return (
    <tr
      data-symbol={symbol}
      data-greyed={problems.length > 0 || undefined}
      className={problems.length > 0 ? "row--chart row--greyed" : "row--chart"}
      title={onDetails ? undefined : (missing ?? legs.join(" · "))}
      onClick={open}
    >
      <th scope="row" className="symbol">
        {onDetails ? (
          <button type="button" className="symbol__details" onClick={() => onDetails(symbol)}>
            {side === "BUY" ? "Buy" : "Sell"}
          </button>
        ) : (
          <>
            <ScreenLink href="/advanced-chart" state={chart} className="symbol__chart-link">
              {side === "BUY" ? "Buy" : "Sell"}
            </ScreenLink>{" "}
            <button
              type="button"
              className="link-button symbol__more"
              aria-label={`Details of ${spread.name} ${side === "BUY" ? "Buy" : "Sell"}`}
              title="Details: legs, statistics, alerts, Open position"
              onClick={() => props.onShowDetails(symbol)}
            >
              ⋯
            </button>
          </>
        )}
        <LegWarning problems={problems} />
      </th>
      <SpreadValue
        value={entry?.spread}
        decimals={decimals}
        missingTitle={missing}
        marks={marks}
        z={compact ? (stats?.z ?? undefined) : undefined}
        unsigned={formulaShape(spread.formula).kind === "ratio"}
      />
      {props.withLots && <DefinitionNetPerLotCell lot={entry?.perLot} />}
      <td className="num col--wide" data-col="mid">
        {formatSigned(entry?.mid ?? undefined, decimals)}
      </td>
      <ZScoreCell symbol={symbol} />
      <td className="num col--wide" data-col="percentile">
        {formatNumber(stats?.percentile, 1)}
      </td>
      <td className="col--wide my-spreads__legs my-spreads__legs-col" data-col="legs">
        {legs.map((text, index) => (
          <Fragment key={text}>
            {/* The dot stays with the leg after it: a narrow column wraps between legs only. */}
            {index > 0 && " "}
            <span className="my-spreads__leg">{index > 0 ? `· ${text}` : text}</span>
          </Fragment>
        ))}
      </td>
      <RowAlertsCell
        symbol={symbol}
        alerts={alerts}
        compact={compact}
        onDetails={onDetails}
        onAlertList={props.onAlertList}
        maxBells={props.maxBells}
      />
    </tr>
  );
}
