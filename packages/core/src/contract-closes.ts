import { calculateAll } from "./calculations.ts";
import {
  CHART_SYMBOLS,
  type ChartSymbol,
  chartSymbolsAffectedBy,
  chartSymbolValues,
} from "./chart-symbol.ts";
import type { Duties } from "./instrument.ts";
import { applyQuote, emptyPrices } from "./prices.ts";
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

/**
 * Aligns legs' own minute closes (each oldest first): every minute some leg closed, with each
 * other leg's last close if it is at most `carryMs` older; minutes where a leg has none are left
 * out. Each leg is its own contract's series, so nothing here glues two contracts together.
 */
export function alignCloses(
  legs: ReadonlyArray<readonly MinuteClose[]>,
  carryMs = LEG_CARRY_MS,
): AlignedMinute[] {
  if (legs.length === 0) return [];
  const next = legs.map(() => 0);
  const last: Array<MinuteClose | undefined> = legs.map(() => undefined);
  const out: AlignedMinute[] = [];
  for (;;) {
    let minute = Number.POSITIVE_INFINITY;
    legs.forEach((leg, i) => {
      const ts = leg[next[i] as number]?.timestamp;
      if (ts !== undefined && ts < minute) minute = ts;
    });
    if (minute === Number.POSITIVE_INFINITY) return out;
    legs.forEach((leg, i) => {
      const candle = leg[next[i] as number];
      if (candle?.timestamp === minute) {
        last[i] = candle;
        next[i] = (next[i] as number) + 1;
      }
    });
    const closes: number[] = [];
    for (const close of last) {
      if (close === undefined || minute - close.timestamp > carryMs) break;
      closes.push(close.close);
    }
    if (closes.length === legs.length) out.push({ timestamp: minute, closes });
  }
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
 * the formula the dashboard uses, by core, undefined where it cannot be computed.
 */
export function chartSymbolAt(
  symbol: ChartSymbol,
  legs: readonly SymbolLeg[],
  closes: readonly number[],
  duties: Duties,
): number | undefined {
  const prices = emptyPrices();
  legs.forEach(({ source, key }, i) => {
    const close = closes[i] as number;
    const book = source === "cme" || source === "mcx";
    applyQuote(
      prices,
      book ? { source, key, bid: close, ask: close, ts: 0 } : { source, key, price: close, ts: 0 },
    );
  });
  return chartSymbolValues(calculateAll(prices, duties), prices)[symbol];
}
