import {
  type Calculations,
  instrument,
  type Prices,
  SIDES,
  SPREAD_TABLE_GROUPS,
} from "@spreadwatch/core";
import type { FreshnessContext } from "../market/freshness.ts";
import type { RowAlerts } from "./alerts/rowAlerts.ts";
import { Panel } from "./Panel.tsx";
import { SpreadTableRow } from "./SpreadTableRow.tsx";

interface SpreadTableProps {
  prices: Prices;
  calculations: Calculations;
  /** The Alerts column's bells; absent for users without alerts_enabled. */
  alerts?: RowAlerts;
  freshness: FreshnessContext;
}

/** Spec §2 "Spread table": a group per commodity, a BUY and a SELL row in each. */
export function SpreadTable({ prices, calculations, alerts, freshness }: SpreadTableProps) {
  return (
    <Panel title="Spread" className="panel--spread">
      <table className="data-table" aria-label="Spread">
        <thead>
          <tr>
            <th scope="col">Symbol</th>
            <th scope="col" className="num">
              Spread
            </th>
            <th scope="col" className="num" title="Net of round-trip costs, one lot">
              Net / lot (₹)
            </th>
            <th scope="col" className="num" title="z-score against the 20-day 1-minute closes">
              z
            </th>
            <th scope="col" className="num">
              CME
            </th>
            <th scope="col" className="num">
              MCX
            </th>
            <th scope="col">Alerts</th>
          </tr>
        </thead>
        {SPREAD_TABLE_GROUPS.map((id) => (
          <tbody key={id} data-group={id}>
            <tr className="group-row">
              <th scope="rowgroup" colSpan={7}>
                {instrument(id).name}
              </th>
            </tr>
            {SIDES.map((side) => {
              const symbol = `${id}_${side}` as const;
              return (
                <SpreadTableRow
                  key={symbol}
                  symbol={symbol}
                  entry={calculations[symbol]}
                  prices={prices}
                  alerts={alerts}
                  freshness={freshness}
                />
              );
            })}
          </tbody>
        ))}
      </table>
    </Panel>
  );
}
