import type { IndexSpreadRow, Prices } from "@spreadwatch/core";
import type { FreshnessContext } from "../../market/freshness.ts";
import { indexSpreadInputs, inputMarks } from "../../market/inputMarks.ts";
import { legProblems } from "../../market/legProblems.ts";
import { Panel } from "../ui/Panel.tsx";
import { type Column, TableHead } from "../ui/TableHead.tsx";
import { LegWarning } from "./LegWarning.tsx";
import { PriceCell } from "./PriceCell.tsx";
import { SpreadValue } from "./SpreadValue.tsx";

const DECIMALS = 2;

/** docs/spec.md §2 "Index Spread table": GIFT NIFTY − NIFTY 50. */
interface IndexSpreadTableProps {
  row: IndexSpreadRow;
  prices: Prices;
  freshness: FreshnessContext;
}

const INDEX_COLUMNS: readonly Column[] = [
  { label: "NIFTY" },
  { label: "Spread", num: true },
  { label: "Future Price (GIFT NIFTY)", num: true },
  { label: "Spot Price (NIFTY 50)", num: true },
];

export function IndexSpreadTable({ row, prices, freshness }: IndexSpreadTableProps) {
  const inputs = indexSpreadInputs(prices);
  const marks = inputMarks(inputs);
  const problems = legProblems(inputs, freshness);
  return (
    <Panel title="Index Spread" className="panel--index">
      <table className="data-table" aria-label="Index Spread">
        <TableHead columns={INDEX_COLUMNS} />
        <tbody>
          <tr
            data-symbol="NIFTY"
            data-delayed={marks.delayed !== undefined || undefined}
            data-greyed={problems.length > 0 || undefined}
            className={problems.length > 0 ? "row--greyed" : undefined}
          >
            <th scope="row" className="symbol">
              NIFTY
              <LegWarning problems={problems} />
            </th>
            <SpreadValue value={row.spread} decimals={DECIMALS} marks={marks} />
            <PriceCell col="future" value={row.future} decimals={DECIMALS} />
            <PriceCell col="spot" value={row.spot} decimals={DECIMALS} />
          </tr>
        </tbody>
      </table>
    </Panel>
  );
}
