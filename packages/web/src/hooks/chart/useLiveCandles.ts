import {
  addSample,
  bucketStart,
  type Candle,
  startCandle,
  type Timeframe,
} from "@spreadwatch/core";
import { useEffect, useRef, useState } from "react";
import { chartValueNow } from "../../market/chartSymbols.ts";
import type { MarketSnapshot } from "../market/useMarketSnapshot.ts";

interface Live {
  base: readonly Candle[];
  candles: readonly Candle[];
  /** The value last folded in; an unchanged value is no new sample (as on the server). */
  lastValue: number | undefined;
}

const fresh = (base: readonly Candle[]): Live => ({
  base,
  candles: base,
  lastValue: base.at(-1)?.close,
});

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
  const [live, setLive] = useState(() => fresh(base));
  let current = live;
  if (live.base !== base) {
    current = fresh(base);
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

/** The candles with one more sample, or undefined when it belongs to a closed candle. */
function foldSample(
  candles: readonly Candle[],
  ts: number,
  value: number,
  timeframe: Timeframe,
): Candle[] | undefined {
  const last = candles.at(-1);
  const bucket = bucketStart(ts, timeframe);
  if (!last || bucket === undefined || bucket < last.timestamp) return undefined;
  if (bucket === last.timestamp) return [...candles.slice(0, -1), addSample(last, value)];
  const started = startCandle(ts, value, timeframe);
  return started ? [...candles, started] : undefined;
}
