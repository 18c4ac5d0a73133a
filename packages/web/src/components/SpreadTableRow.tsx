import {
  type CalculationEntry,
  cmePriceDecimals,
  mcxPriceDecimals,
  type Prices,
  type SpreadSymbol,
  spreadDecimals,
} from "@spreadwatch/core";
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
  return (
    <tr data-symbol={symbol} title={entry ? parityBreakdown(entry) : missing}>
      <th scope="row" className="symbol">
        {symbol}
      </th>
      <SpreadValue value={entry?.spread} decimals={spreadDecimals(symbol)} missingTitle={missing} />
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
