import { calculateSymbol } from "./calculations.ts";
import { ALERT_COOLDOWN_MS } from "./constants.ts";
import { type CrossingState, observeCrossing, type ThresholdSide } from "./crossing.ts";
import type { Duties } from "./instrument.ts";
import { applyQuote, emptyPrices } from "./prices.ts";
import type { Quote } from "./quote.ts";
import type { SpreadSymbol } from "./symbol.ts";

/** A spread value at a moment (epoch ms). */
export interface SpreadSample {
  ts: number;
  value: number;
}

/** A moment an alert fired, with the spread that fired it and the side it moved to. */
export interface AlertFiring {
  ts: number;
  value: number;
  side: ThresholdSide;
}

/**
 * When an alert with `threshold` would have fired over `samples`, by the same rule the browser
 * and the server apply (observeCrossing), each sample's `ts` being the clock. Samples are taken
 * in the order given; one that cannot be used (non-finite value or time) changes nothing.
 */
export function backtestAlert(
  samples: Iterable<SpreadSample>,
  threshold: number,
  cooldownMs: number = ALERT_COOLDOWN_MS,
): AlertFiring[] {
  const firings: AlertFiring[] = [];
  let state: CrossingState = {};
  for (const { ts, value } of samples) {
    const next = observeCrossing(state, threshold, value, ts, cooldownMs);
    if (next.fired && next.side !== undefined) firings.push({ ts, value, side: next.side });
    state = next.state;
  }
  return firings;
}

/**
 * The spread of `symbol` over a stream of quotes, as the server computes it: quotes are folded
 * into prices one by one (applyQuote; rejected quotes are skipped) and a sample is emitted, at
 * the quote's time, whenever the spread becomes computable or changes. A quote that leaves the
 * spread as it was (another instrument, the book side the spread does not use) adds nothing, so
 * the series is what an alert watching this symbol would have seen.
 */
export function spreadSeries(
  quotes: Iterable<Quote>,
  symbol: SpreadSymbol,
  duties: Duties,
): SpreadSample[] {
  const prices = emptyPrices();
  const samples: SpreadSample[] = [];
  let last: number | undefined;
  for (const quote of quotes) {
    if (!applyQuote(prices, quote)) continue;
    const value = calculateSymbol(symbol, prices, duties)?.spread;
    if (value === undefined || value === last) continue;
    samples.push({ ts: quote.ts, value });
    last = value;
  }
  return samples;
}
