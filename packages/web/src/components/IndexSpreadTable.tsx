import type { IndexSpreadRow, Prices } from "@spreadwatch/core";
import { indexSpreadInputs, inputMarks } from "../market/inputMarks.ts";
import { Panel } from "./Panel.tsx";
import { PriceCell } from "./PriceCell.tsx";
import { SpreadValue } from "./SpreadValue.tsx";

const DECIMALS = 2;

/** Spec §2 "Index Spread table": GIFT NIFTY − NIFTY 50. */
export function IndexSpreadTable({ row, prices }: { row: IndexSpreadRow; prices: Prices }) {
  const marks = inputMarks(indexSpreadInputs(prices));
  return (
    <Panel title="Index Spread">
      <table className="data-table" aria-label="Index Spread">
        <thead>
          <tr>
            <th scope="col">NIFTY</th>
            <th scope="col" className="num">
              Spread
            </th>
            <th scope="col" className="num">
              Future Price (GIFT NIFTY)
            </th>
            <th scope="col" className="num">
              Spot Price (NIFTY 50)
            </th>
          </tr>
        </thead>
        <tbody>
          <tr data-symbol="NIFTY" data-delayed={marks.delayed !== undefined || undefined}>
            <th scope="row" className="symbol">
              NIFTY
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
