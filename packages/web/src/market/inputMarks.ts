import type { Prices, QuoteSource, SpotKey, SpreadSymbol } from "@spreadwatch/core";
import type { QuoteEntry } from "./freshness.ts";
import { spreadLegs } from "./spreadInputs.ts";

/** One price a spread reads, named for a title ("CME GC"), with its quote. */
export interface SpreadInput {
  label: string;
  source: QuoteSource;
  /** The quote key its provider serves (GC, GOLD, USDINR, GIFTNIFTY…). */
  key: string;
  /** The side of a book the spread reads; absent when it reads a single price or the mid. */
  side?: "bid" | "ask";
  entry: QuoteEntry | undefined;
}

/** The inputs of a Spread table row: its CME and MCX books and USDINR. */
export function spreadInputs(symbol: SpreadSymbol, prices: Prices): SpreadInput[] {
  const { inst, cmeSide, mcxSide } = spreadLegs(symbol);
  return [
    {
      label: `CME ${inst.cmeKey}`,
      source: "cme",
      key: inst.cmeKey,
      side: cmeSide,
      entry: prices.cme[inst.cmeKey],
    },
    {
      label: `MCX ${inst.mcxKey}`,
      source: "mcx",
      key: inst.mcxKey,
      side: mcxSide,
      entry: prices.mcx[inst.mcxKey],
    },
    { label: "USDINR", source: "fx", key: "USDINR", entry: prices.fx.USDINR },
  ];
}

/** The inputs of a Spot Spread row: the CME future (its mid) and the spot price. */
export function spotSpreadInputs(id: "GC" | "SI", spotKey: SpotKey, prices: Prices): SpreadInput[] {
  return [
    { label: `CME ${id}`, source: "cme", key: id, entry: prices.cme[id] },
    { label: `spot ${spotKey}`, source: "spot", key: spotKey, entry: prices.spot[spotKey] },
  ];
}

/** The inputs of the Index Spread row: GIFT NIFTY and NIFTY 50. */
export function indexSpreadInputs(prices: Prices): SpreadInput[] {
  return [
    { label: "GIFT NIFTY", source: "index", key: "GIFTNIFTY", entry: prices.zerodha.giftnifty },
    { label: "NIFTY 50", source: "index", key: "NIFTY50", entry: prices.zerodha.nifty50 },
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
  const delayed = inputs.filter((input) => input.entry?.delayed).map((input) => input.label);
  const lastOnly = inputs.filter((input) => input.entry?.lastOnly).map((input) => input.label);
  const marks: InputMarks = {};
  if (delayed.length > 0) {
    marks.delayed = `${computedFrom("delayed", delayed)}: an indication, not a price to trade on.`;
  }
  if (lastOnly.length > 0) {
    marks.lastOnly = `${computedFrom("last traded", lastOnly)}: the source gave no bid/ask.`;
  }
  return marks;
}
