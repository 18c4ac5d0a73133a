import type { AlertView } from "../../alerts/texts.ts";

/** What the Spread table's Alerts column needs: the alerts per row and what a click opens. */
export interface RowAlerts {
  bySymbol: ReadonlyMap<string, AlertView[]>;
  /** A built-in's GC_BUY or a definition's SP7_BUY. */
  onAdd(symbol: string): void;
  onEdit(symbol: string, alert: AlertView): void;
}

export function groupBySymbol(alerts: readonly AlertView[]): Map<string, AlertView[]> {
  const groups = new Map<string, AlertView[]>();
  for (const alert of alerts) {
    const group = groups.get(alert.commodityType);
    if (group) group.push(alert);
    else groups.set(alert.commodityType, [alert]);
  }
  return groups;
}
