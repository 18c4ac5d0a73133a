import type { Candle, Timeframe } from "@spreadwatch/core";
import { useEffect, useRef, useState } from "react";
import { chartValueNow } from "../../market/chartSymbols.ts";
import { foldSample, keepShown } from "../../market/liveCandles.ts";
import type { MarketSnapshot } from "../market/useMarketSnapshot.ts";

interface Live {
  base: readonly Candle[];
  /** The symbol and timeframe the candles are of. */
  chart: string;
  candles: readonly Candle[];
  /** The value last folded in; an unchanged value is no new sample (as on the server). */
  lastValue: number | undefined;
}

/**
 * The live state over newly fetched candles: what the same chart showed from the fetched last
 * candle on stays (keepShown), since the stream will not send those samples again.
 */
function rebase(base: readonly Candle[], chart: string, before: Live | undefined): Live {
  const candles = before?.chart === chart ? keepShown(base, before.candles) : base;
  const lastValue = candles === base ? base.at(-1)?.close : before?.lastValue;
  return { base, chart, candles, lastValue };
}

/**
 * The fetched candles with the forming candle kept current from the market stream between
 * fetches: a new spread value widens the last candle and becomes its close; a value in a later
 * bucket starts a new candle and asks for a refetch, which brings the closed candle exactly as
 * the server recorded it. Samples are stamped with the quotes' time, like the server's.
 */
export function useLiveCandles(
  base: readonly Candle[],
  symbol: string,
  timeframe: Timeframe,
  snapshot: MarketSnapshot | undefined,
  onRollover: () => void,
): readonly Candle[] {
  const chart = `${symbol}|${timeframe}`;
  const [live, setLive] = useState(() => rebase(base, chart, undefined));
  let current = live;
  if (live.base !== base || live.chart !== chart) {
    current = rebase(base, chart, live);
    setLive(current);
  }
  const latest = useRef(current);
  latest.current = current;
  const rollover = useRef(onRollover);
  rollover.current = onRollover;

  useEffect(() => {
    if (!snapshot) return;
    const value = chartValueNow(snapshot.calculations, snapshot.prices, symbol);
    const ts = snapshot.prices.timestamp;
    const prev = latest.current;
    if (value === undefined || ts === null || value === prev.lastValue) return;
    const next = foldSample(prev.candles, ts, value, timeframe);
    if (!next) return;
    const updated = { ...prev, candles: next, lastValue: value };
    latest.current = updated;
    setLive(updated);
    if (next.length > prev.candles.length) rollover.current();
  }, [snapshot, symbol, timeframe]);

  return current.candles;
}
