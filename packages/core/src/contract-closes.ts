import {
  CHART_SYMBOLS,
  type ChartSymbol,
  chartSymbolsAffectedBy,
  chartSymbolValue,
} from "./chart-symbol.ts";
import type { Duties } from "./instrument.ts";
import { applyQuote, emptyPrices, type Prices } from "./prices.ts";
import { QUOTE_KEYS, type QuoteSource } from "./quote.ts";

/**
 * How long a leg's last close stands in for it (docs/history.md): markets with different hours
 * (MCX 09:00–23:30 IST, CME nearly round the clock) meet minute by minute only where both
 * quote, give or take this much. A minute where a leg has no close within it is no spread minute.
 */
export const LEG_CARRY_MS = 5 * 60_000;

/** One 1-minute close: the candle's open time and its close. */
export interface MinuteClose {
  timestamp: number;
  close: number;
}

/** A minute every leg has a close for, each leg's in the order the legs were given. */
export interface AlignedMinute {
  timestamp: number;
  closes: number[];
}

/** A series of minute closes as columns: open times (oldest first) and closes, index by index. */
export interface CloseSeries {
  times: ArrayLike<number>;
  closes: ArrayLike<number>;
}

/**
 * Aligns legs' own minute closes (each oldest first): every minute some leg closed, with each
 * other leg's last close if it is at most `carryMs` older; minutes where a leg has none are left
 * out. Each leg is its own contract's series, so nothing here glues two contracts together.
 * `visit` gets each aligned minute with the legs' closes in one array it must not keep (reused:
 * 20 days of a spread's minutes, read at every start, allocate nothing a minute).
 */
export function forEachAlignedMinute(
  legs: readonly CloseSeries[],
  visit: (timestamp: number, closes: Float64Array) => void,
  carryMs = LEG_CARRY_MS,
): void {
  const k = legs.length;
  if (k === 0) return;
  const next = new Int32Array(k);
  const lastAt = new Float64Array(k).fill(Number.NEGATIVE_INFINITY);
  const closes = new Float64Array(k);
  for (;;) {
    let minute = Number.POSITIVE_INFINITY;
    for (let i = 0; i < k; i++) {
      const leg = legs[i] as CloseSeries;
      const at = next[i] as number;
      if (at < leg.times.length && (leg.times[at] as number) < minute)
        minute = leg.times[at] as number;
    }
    if (minute === Number.POSITIVE_INFINITY) return;
    let complete = true;
    for (let i = 0; i < k; i++) {
      const leg = legs[i] as CloseSeries;
      const at = next[i] as number;
      if (at < leg.times.length && leg.times[at] === minute) {
        lastAt[i] = minute;
        closes[i] = leg.closes[at] as number;
        next[i] = at + 1;
      }
      if (minute - (lastAt[i] as number) > carryMs) complete = false;
    }
    if (complete) visit(minute, closes);
  }
}

/** forEachAlignedMinute's minutes as objects (tests and small series). */
export function alignCloses(
  legs: ReadonlyArray<readonly MinuteClose[]>,
  carryMs = LEG_CARRY_MS,
): AlignedMinute[] {
  const out: AlignedMinute[] = [];
  forEachAlignedMinute(
    legs.map((leg) => ({
      times: leg.map((c) => c.timestamp),
      closes: leg.map((c) => c.close),
    })),
    (timestamp, closes) => out.push({ timestamp, closes: [...closes] }),
    carryMs,
  );
  return out;
}

/** A quote group and key a chart symbol is made of (GC_BUY: cme GC, mcx GOLD, fx USDINR). */
export interface SymbolLeg {
  source: QuoteSource;
  key: string;
}

const LEGS = new Map<ChartSymbol, SymbolLeg[]>(CHART_SYMBOLS.map((symbol) => [symbol, []]));
for (const source of Object.keys(QUOTE_KEYS) as QuoteSource[])
  for (const key of QUOTE_KEYS[source])
    for (const symbol of chartSymbolsAffectedBy({ source, key }))
      LEGS.get(symbol)?.push({ source, key });

/** The legs of a built-in chart symbol, in the catalogue's order. */
export function chartSymbolLegs(symbol: ChartSymbol): readonly SymbolLeg[] {
  return LEGS.get(symbol) ?? [];
}

/**
 * A chart symbol's value at legs' closes (mids, so a book's bid and ask are both the close):
 * the formula the dashboard uses, by core, undefined where it cannot be computed. `prices` may be
 * one reused minute after minute for the same legs (each minute sets every leg's price anew).
 */
export function chartSymbolAt(
  symbol: ChartSymbol,
  legs: readonly SymbolLeg[],
  closes: ArrayLike<number>,
  duties: Duties,
  prices: Prices = emptyPrices(),
): number | undefined {
  for (let i = 0; i < legs.length; i++) {
    const { source, key } = legs[i] as SymbolLeg;
    const close = closes[i] as number;
    const book = source === "cme" || source === "mcx";
    applyQuote(
      prices,
      book ? { source, key, bid: close, ask: close, ts: 0 } : { source, key, price: close, ts: 0 },
    );
  }
  return chartSymbolValue(symbol, prices, duties);
}
