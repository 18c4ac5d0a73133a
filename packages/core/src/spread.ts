import type { Instrument } from "./instrument.ts";

/** A price in CME units brought to the MCX contract's unit, currency and duty. */
export function parity(
  cmePrice: number,
  instrument: Pick<Instrument, "factor">,
  usdinr: number,
  duty: number,
): number {
  return cmePrice * instrument.factor * usdinr * (1 + duty);
}

export interface Book {
  bid?: number | undefined;
  ask?: number | undefined;
}

export interface SpreadLeg {
  spread: number;
  /** The CME price the spread used (bid for BUY, ask for SELL). */
  cme: number;
  /** The MCX price the spread used (ask for BUY, bid for SELL). */
  mcx: number;
  parity: number;
}

function isPrice(value: number | undefined): value is number {
  return value !== undefined && Number.isFinite(value);
}

/**
 * A book whose bid is above its ask cannot be traded as shown (a feed glitch, or one side older
 * than the other): no spread is built on it. Equal sides (a last-only book) are not crossed.
 */
export function isCrossed(book: Book): boolean {
  return isPrice(book.bid) && isPrice(book.ask) && book.bid > book.ask;
}

/**
 * The spread of crossing both books at `mcxPrice` and `cmePrice`: MCX minus the CME price's
 * parity. A non-finite input, duty included (a bad config value), gives undefined — never a NaN
 * spread that would reach the table and the alert crossing rule.
 */
function crossSpread(
  cmePrice: number | undefined,
  mcxPrice: number | undefined,
  instrument: Pick<Instrument, "factor">,
  usdinr: number | undefined,
  duty: number,
): SpreadLeg | undefined {
  if (!isPrice(cmePrice) || !isPrice(mcxPrice)) return undefined;
  if (!isPrice(usdinr) || !isPrice(duty)) return undefined;
  const p = parity(cmePrice, instrument, usdinr, duty);
  return { spread: mcxPrice - p, cme: cmePrice, mcx: mcxPrice, parity: p };
}

/** Buy MCX at its ask, sell CME at its bid: `mcx.ask − parity(cme.bid)`; none on a crossed book. */
export function buySpread(
  cme: Book,
  mcx: Book,
  instrument: Pick<Instrument, "factor">,
  usdinr: number | undefined,
  duty: number,
): SpreadLeg | undefined {
  if (isCrossed(cme) || isCrossed(mcx)) return undefined;
  return crossSpread(cme.bid, mcx.ask, instrument, usdinr, duty);
}

/** Sell MCX at its bid, buy CME at its ask: `mcx.bid − parity(cme.ask)`; none on a crossed book. */
export function sellSpread(
  cme: Book,
  mcx: Book,
  instrument: Pick<Instrument, "factor">,
  usdinr: number | undefined,
  duty: number,
): SpreadLeg | undefined {
  if (isCrossed(cme) || isCrossed(mcx)) return undefined;
  return crossSpread(cme.ask, mcx.bid, instrument, usdinr, duty);
}

/** Mid of a book, or undefined when either side is missing or the book is crossed. */
export function mid(book: Book): number | undefined {
  if (!isPrice(book.bid) || !isPrice(book.ask) || isCrossed(book)) return undefined;
  return (book.bid + book.ask) / 2;
}

/** Spot spread in USD: CME future mid − spot price. */
export function spotSpread(cmeFuture: Book, spotPrice: number | undefined): number | undefined {
  const m = mid(cmeFuture);
  if (m === undefined || !isPrice(spotPrice)) return undefined;
  return m - spotPrice;
}

/** Index spread: GIFT NIFTY − NIFTY 50. */
export function indexSpread(
  giftNifty: number | undefined,
  nifty50: number | undefined,
): number | undefined {
  if (!isPrice(giftNifty) || !isPrice(nifty50)) return undefined;
  return giftNifty - nifty50;
}
