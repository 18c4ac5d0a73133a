import { type Prices, type SpotSpreadRow, spreadDecimals } from "@spreadwatch/core";
import type { FreshnessContext } from "../../market/freshness.ts";
import { inputMarks, spotSpreadInputs } from "../../market/inputMarks.ts";
import { type LegProblem, legProblems } from "../../market/legProblems.ts";
import { Panel } from "../ui/Panel.tsx";
import { type Column, TableHead } from "../ui/TableHead.tsx";
import { LegWarning } from "./LegWarning.tsx";
import { PriceCell } from "./PriceCell.tsx";
import { SpreadValue } from "./SpreadValue.tsx";

const PRICE_DECIMALS = 2;

interface SpotSpreadTableProps {
  rows: SpotSpreadRow[];
  prices: Prices;
  freshness: FreshnessContext;
}

/** The spread cell's title when there is no spread: the crossed book, or the absent CME book. */
function cannotComputeTitle(id: string, problems: LegProblem[]): string {
  const crossed = problems.find((problem) => problem.kind === "crossed");
  return `Cannot compute: ${crossed ? crossed.text : `no CME ${id} bid and ask`}`;
}

const SPOT_COLUMNS: readonly Column[] = [
  { label: "Symbol" },
  { label: "Spread", num: true },
  { label: "Future Price", num: true },
  { label: "Spot Price", num: true },
];

/** docs/spec.md §2 "Spot Spread table": CME future mid − spot, in USD. */
export function SpotSpreadTable({ rows, prices, freshness }: SpotSpreadTableProps) {
  return (
    <Panel title="Spot Spread">
      <table className="data-table" aria-label="Spot Spread">
        <TableHead columns={SPOT_COLUMNS} />
        <tbody>
          {rows.map((row) => {
            const inputs = spotSpreadInputs(row.id, row.spotKey, prices);
            const marks = inputMarks(inputs);
            const problems = legProblems(inputs, freshness);
            return (
              <tr
                key={row.id}
                data-symbol={row.spotKey}
                data-delayed={
                  (row.spread !== undefined && marks.delayed !== undefined) || undefined
                }
                data-greyed={problems.length > 0 || undefined}
                className={problems.length > 0 ? "row--greyed" : undefined}
              >
                <th scope="row" className="symbol">
                  {row.name}
                  <LegWarning problems={problems} />
                </th>
                <SpreadValue
                  value={row.spread}
                  decimals={spreadDecimals(row.id)}
                  missingTitle={cannotComputeTitle(row.id, problems)}
                  marks={marks}
                />
                <PriceCell col="future" value={row.future} decimals={PRICE_DECIMALS} />
                <PriceCell col="spot" value={row.spot} decimals={PRICE_DECIMALS} />
              </tr>
            );
          })}
        </tbody>
      </table>
    </Panel>
  );
}
