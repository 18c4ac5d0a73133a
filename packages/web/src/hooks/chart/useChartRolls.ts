import type { Candle, ChartRoll } from "@spreadwatch/core";
import { keepPreviousData } from "@tanstack/react-query";
import { useMemo } from "react";
import { chartLegKeys } from "../../market/chartLegs.ts";
import { trpc } from "../../trpc.ts";

const HOUR_MS = 3_600_000;
const NONE: readonly ChartRoll[] = [];

/**
 * The rolls of the chart's legs between its oldest candle held and the end of this hour (a
 * range that stays put while live candles arrive, so it is not asked for again each minute),
 * oldest first.
 */
export function useChartRolls(
  symbol: string,
  candles: readonly Candle[],
  /** A definition's legs, whose rolls it marks; absent for a built-in symbol. */
  definitionLegs?: readonly { instrument: string }[],
): readonly ChartRoll[] {
  const from = candles[0]?.timestamp;
  const to = Math.ceil((candles.at(-1)?.timestamp ?? 0) / HOUR_MS + 1e-9) * HOUR_MS;
  const query = trpc.market.rolls.useQuery(
    { from: from ?? 0, to },
    { enabled: from !== undefined, placeholderData: keepPreviousData },
  );
  const rolls = query.data?.rolls;
  return useMemo(() => {
    if (!rolls) return NONE;
    const legs = new Set(chartLegKeys(symbol, definitionLegs));
    return rolls.filter((roll) => legs.has(roll.key)).sort((a, b) => a.at - b.at);
  }, [rolls, symbol, definitionLegs]);
}
