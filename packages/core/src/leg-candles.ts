import type { Candle } from "./candles.ts";
import { type CompiledFormula, evaluateSide, type LegBook } from "./formula.ts";

/**
 * A spread's candles from its legs' mid candles (docs/formulas.md, "History from the legs"):
 * at every candle time of any leg, the formula's MID over each leg's close (the open over each
 * leg's open, or its last close where that leg has no candle then), a leg without a candle yet
 * carrying no value. High and low span open and close only: the legs' highs and lows were not at
 * one moment, so their formula is no price the spread had. `legs` are in the formula's leg order,
 * each oldest first; a time where the formula has no value (÷ 0) gives no candle.
 */
export function candlesFromLegs(
  formula: CompiledFormula,
  legs: ReadonlyArray<readonly Candle[]>,
): Candle[] {
  if (legs.length !== formula.legs.length) return [];
  const times = new Set<number>();
  for (const candles of legs) for (const c of candles) times.add(c.timestamp);
  const sorted = [...times].sort((a, b) => a - b);
  const next = legs.map(() => 0);
  const last: Array<number | undefined> = legs.map(() => undefined);
  const opens: LegBook[] = legs.map(() => ({}));
  const closes: LegBook[] = legs.map(() => ({}));
  const out: Candle[] = [];
  for (const t of sorted) {
    let complete = true;
    for (let i = 0; i < legs.length; i++) {
      const candles = legs[i] as readonly Candle[];
      // Every time is visited in order, so the candles left at or before t are those of t.
      let open = last[i];
      for (let first = true; (next[i] as number) < candles.length; first = false) {
        const c = candles[next[i] as number] as Candle;
        if (c.timestamp > t) break;
        if (first) open = c.open;
        last[i] = c.close;
        next[i] = (next[i] as number) + 1;
      }
      const close = last[i];
      if (close === undefined || open === undefined) {
        complete = false;
        continue;
      }
      setBook(opens[i] as LegBook, open);
      setBook(closes[i] as LegBook, close);
    }
    if (!complete) continue;
    const open = evaluateSide(formula, opens, "MID")?.value;
    const close = evaluateSide(formula, closes, "MID")?.value;
    if (open === undefined || close === undefined) continue;
    out.push({
      timestamp: t,
      open,
      high: Math.max(open, close),
      low: Math.min(open, close),
      close,
    });
  }
  return out;
}

/** A mid as a book whose middle it is. */
function setBook(book: LegBook, mid: number): void {
  book.bid = mid;
  book.ask = mid;
}
