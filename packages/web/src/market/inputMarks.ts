import type { Prices, QuoteMarks, SpotKey, SpreadSymbol } from "@spreadwatch/core";
import { spreadLegs } from "./spreadInputs.ts";

/** One price a spread reads, named for a title ("CME GC"), with its quote's marks. */
export interface SpreadInput {
  label: string;
  marks: QuoteMarks | undefined;
}

/** The inputs of a Spread table row: its CME and MCX books and USDINR. */
export function spreadInputs(symbol: SpreadSymbol, prices: Prices): SpreadInput[] {
  const { inst } = spreadLegs(symbol);
  return [
    { label: `CME ${inst.cmeKey}`, marks: prices.cme[inst.cmeKey] },
    { label: `MCX ${inst.mcxKey}`, marks: prices.mcx[inst.mcxKey] },
    { label: "USDINR", marks: prices.fx.USDINR },
  ];
}

/** The inputs of a Spot Spread row: the CME future and the spot price. */
export function spotSpreadInputs(id: "GC" | "SI", spotKey: SpotKey, prices: Prices): SpreadInput[] {
  return [
    { label: `CME ${id}`, marks: prices.cme[id] },
    { label: `spot ${spotKey}`, marks: prices.spot[spotKey] },
  ];
}

/** The inputs of the Index Spread row: GIFT NIFTY and NIFTY 50. */
export function indexSpreadInputs(prices: Prices): SpreadInput[] {
  return [
    { label: "GIFT NIFTY", marks: prices.zerodha.giftnifty },
    { label: "NIFTY 50", marks: prices.zerodha.nifty50 },
  ];
}

/** "CME GC", "CME GC and MCX GOLD", "CME GC, spot XAUUSD and USDINR". */
function listLabels(labels: string[]): string {
  if (labels.length <= 1) return labels.join("");
  return `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
}

/** Which of a spread's inputs are delayed or last-price-only, as titles for the row's tags. */
export interface InputMarks {
  /** Set when an input is delayed, e.g. "Computed from a delayed CME GC price…". */
  delayed?: string;
  /** Set when an input has no bid/ask: its last traded price stands for both. */
  lastOnly?: string;
}

/** "a delayed CME GC price", "delayed CME GC and USDINR prices". */
function computedFrom(kind: string, labels: string[]): string {
  const one = labels.length === 1;
  return `Computed from ${one ? "a " : ""}${kind} ${listLabels(labels)} ${one ? "price" : "prices"}`;
}

export function inputMarks(inputs: SpreadInput[]): InputMarks {
  const delayed = inputs.filter((input) => input.marks?.delayed).map((input) => input.label);
  const lastOnly = inputs.filter((input) => input.marks?.lastOnly).map((input) => input.label);
  const marks: InputMarks = {};
  if (delayed.length > 0) {
    marks.delayed = `${computedFrom("delayed", delayed)}: an indication, not a price to trade on.`;
  }
  if (lastOnly.length > 0) {
    marks.lastOnly = `${computedFrom("last traded", lastOnly)}: the source gave no bid/ask.`;
  }
  return marks;
}
