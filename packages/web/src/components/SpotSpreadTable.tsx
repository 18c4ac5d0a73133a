import { type Prices, type SpotSpreadRow, spreadDecimals } from "@spreadwatch/core";
import { inputMarks, spotSpreadInputs } from "../market/inputMarks.ts";
import { Panel } from "./Panel.tsx";
import { PriceCell } from "./PriceCell.tsx";
import { SpreadValue } from "./SpreadValue.tsx";

const PRICE_DECIMALS = 2;

/** Spec §2 "Spot Spread table": CME future mid − spot, in USD. */
export function SpotSpreadTable({ rows, prices }: { rows: SpotSpreadRow[]; prices: Prices }) {
  return (
    <Panel title="Spot Spread">
      <table className="data-table" aria-label="Spot Spread">
        <thead>
          <tr>
            <th scope="col">Symbol</th>
            <th scope="col" className="num">
              Spread
            </th>
            <th scope="col" className="num">
              Future Price
            </th>
            <th scope="col" className="num">
              Spot Price
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const marks = inputMarks(spotSpreadInputs(row.id, row.spotKey, prices));
            return (
              <tr
                key={row.id}
                data-symbol={row.spotKey}
                data-delayed={
                  (row.spread !== undefined && marks.delayed !== undefined) || undefined
                }
              >
                <th scope="row" className="symbol">
                  {row.name}
                </th>
                <SpreadValue
                  value={row.spread}
                  decimals={spreadDecimals(row.id)}
                  missingTitle={`Cannot compute: no CME ${row.id} bid and ask`}
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
