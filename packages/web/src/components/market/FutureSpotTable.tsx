import type { ReactNode } from "react";
import type { FreshnessContext } from "../../market/freshness.ts";
import type { SpreadInput } from "../../market/inputMarks.ts";
import { type LegProblem, legsState } from "../../market/legProblems.ts";
import { DataTable } from "../ui/DataTable.tsx";
import { Panel } from "../ui/Panel.tsx";
import type { Column } from "../ui/TableHead.tsx";
import { LegWarning } from "./LegWarning.tsx";
import { PriceCell } from "./PriceCell.tsx";
import { SpreadValue } from "./SpreadValue.tsx";

/** The columns of a future − spot table: the row's name, the spread, then the two prices. */
export function futureSpotColumns(name: string, future: string, spot: string): readonly Column[] {
  return [
    { label: name },
    { label: "Spread", num: true },
    { label: future, num: true },
    { label: spot, num: true },
  ];
}

interface FutureSpotTableProps {
  /** The panel's title, which also names the table. */
  title: string;
  columns: readonly Column[];
  className?: string;
  children: ReactNode;
}

/**
 * A side table of future − spot spreads (docs/spec.md §2 "Spot Spread table", "Index Spread
 * table"): a panel, its heading row, one FutureSpotRow a spread.
 */
export function FutureSpotTable({ title, columns, className, children }: FutureSpotTableProps) {
  return (
    <Panel title={title} className={className}>
      <DataTable label={title} columns={columns}>
        {children}
      </DataTable>
    </Panel>
  );
}

interface FutureSpotRowProps {
  /** The row's data-symbol: the spot's key (XAUUSD) or NIFTY. */
  symbol: string;
  name: string;
  spread: number | undefined;
  future: number | undefined;
  spot: number | undefined;
  /** The two legs, future first, for the delayed and stale marks. */
  inputs: SpreadInput[];
  freshness: FreshnessContext;
  spreadDecimals: number;
  priceDecimals: number;
  /** The spread cell's title when there is no spread, given what is wrong with the legs. */
  missingTitle?: (problems: LegProblem[]) => string;
}

/** A future − spot row: greyed with a warning when a leg cannot be trusted, delayed legs marked. */
export function FutureSpotRow(props: FutureSpotRowProps) {
  const { symbol, name, spread, inputs, freshness, priceDecimals } = props;
  const { problems, marks, greyed, data } = legsState(inputs, freshness, spread !== undefined);
  return (
    <tr data-symbol={symbol} {...data} className={greyed ? "row--greyed" : undefined}>
      <th scope="row" className="symbol">
        {name}
        <LegWarning problems={problems} />
      </th>
      <SpreadValue
        value={spread}
        decimals={props.spreadDecimals}
        missingTitle={props.missingTitle?.(problems)}
        marks={marks}
      />
      <PriceCell col="future" value={props.future} decimals={priceDecimals} />
      <PriceCell col="spot" value={props.spot} decimals={priceDecimals} />
    </tr>
  );
}
