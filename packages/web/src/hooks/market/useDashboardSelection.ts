import { BUILT_IN_KEYS } from "@spreadwatch/core";
import { type RefObject, useMemo } from "react";
import { useOpenPositions } from "../positions/usePositions.ts";
import type { MarketSelection } from "./useMarketSnapshot.ts";
import { useOffscreenKeys } from "./useOffscreenKeys.ts";
import type { SpreadDefinitionView } from "./useSpreadDefinitions.ts";

/**
 * What the dashboard's stream leaves out: instruments whose Prices rows are off screen, unless
 * a spread the trader sees or a position they hold has a leg on them (those rows and the alert
 * and position watchers need them live). Undefined (everything) until the rows are measured.
 * docs/decisions.md "What the dashboard's stream carries".
 */
export function useDashboardSelection(
  box: RefObject<HTMLElement | null>,
  spreads: readonly SpreadDefinitionView[],
): MarketSelection | undefined {
  const { positions } = useOpenPositions();
  const always = useMemo(() => {
    const keys = new Set<string>(BUILT_IN_KEYS);
    for (const spread of spreads) for (const leg of spread.legs) keys.add(leg.instrument);
    for (const position of positions)
      for (const leg of Object.values(position.legs)) keys.add(leg.instrument);
    return [...keys].sort();
  }, [spreads, positions]);
  const offscreen = useOffscreenKeys(box, always);
  return useMemo(
    () => (offscreen && offscreen.length > 0 ? { exceptKeys: [...offscreen] } : undefined),
    [offscreen],
  );
}
