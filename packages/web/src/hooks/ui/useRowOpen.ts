import type { MouseEvent } from "react";
import { useLocation } from "wouter";
import type { ChartNavigationState } from "../chart/useChartSelection.ts";

/**
 * A spread row's click (docs/user-guide.md, "The dashboard"): its details where the screen shows
 * them (`onDetails`, a phone's sheet), else its chart. Controls in the row keep their own clicks,
 * and so do portals (a bell's tooltip).
 */
export function useRowOpen<S extends string>(
  symbol: S,
  onDetails: ((symbol: S) => void) | undefined,
): (event: MouseEvent<HTMLTableRowElement>) => void {
  const [, navigate] = useLocation();
  return (event) => {
    const target = event.target;
    if (!(target instanceof Element) || !event.currentTarget.contains(target)) return;
    if (target.closest("a, button, input, select")) return;
    if (onDetails) onDetails(symbol);
    else
      navigate("/advanced-chart", { state: { commodity: symbol } satisfies ChartNavigationState });
  };
}
