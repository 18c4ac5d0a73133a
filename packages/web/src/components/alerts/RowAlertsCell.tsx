import { AlertBells, AlertCountBell } from "./AlertBells.tsx";
import type { RowAlerts } from "./rowAlerts.ts";

/**
 * The Alerts column of a spread row, built-in or a user's own: the row's bells (or, compact on a
 * phone, their count opening the row's details), or "No alerts" where alerts are off.
 */
export function RowAlertsCell<S extends string>(props: {
  symbol: S;
  alerts: RowAlerts | undefined;
  compact: boolean;
  onDetails: ((symbol: S) => void) | undefined;
  onAlertList: (symbol: S) => void;
  maxBells: number | undefined;
}) {
  const { symbol, alerts, onDetails } = props;
  if (!alerts)
    return (
      <td className="alerts muted" data-col="alerts">
        No alerts
      </td>
    );
  const rowAlerts = alerts.bySymbol.get(symbol) ?? [];
  return (
    <td className="alerts" data-col="alerts">
      {props.compact && onDetails ? (
        <AlertCountBell
          alerts={rowAlerts}
          onOpen={() => onDetails(symbol)}
          onAdd={() => alerts.onAdd(symbol)}
        />
      ) : (
        <AlertBells
          alerts={rowAlerts}
          onEdit={(alert) => alerts.onEdit(symbol, alert)}
          onAdd={() => alerts.onAdd(symbol)}
          onMore={() => props.onAlertList(symbol)}
          max={props.maxBells}
        />
      )}
    </td>
  );
}
