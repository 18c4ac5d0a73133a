import {
  type CalculationEntry,
  cmePriceDecimals,
  formatNumber,
  instrument,
  mcxPriceDecimals,
  type Prices,
  parseSpreadSymbol,
  rawPriceDecimals,
  type SpreadSymbol,
} from "@spreadwatch/core";

/** The quote sides a spread reads: BUY sells CME at its bid and buys MCX at its ask. */
export function spreadLegs(symbol: SpreadSymbol) {
  const { id, side } = parseSpreadSymbol(symbol);
  const inst = instrument(id);
  const cmeSide = side === "BUY" ? "bid" : "ask";
  const mcxSide = side === "BUY" ? "ask" : "bid";
  return { inst, cmeSide, mcxSide } as const;
}

/** The CME and MCX prices a spread row shows, read from the book even when the spread is absent. */
export function rowPrices(symbol: SpreadSymbol, prices: Prices) {
  const { inst, cmeSide, mcxSide } = spreadLegs(symbol);
  return { cme: prices.cme[inst.cmeKey]?.[cmeSide], mcx: prices.mcx[inst.mcxKey]?.[mcxSide] };
}

/** Which inputs are missing when a spread cannot be computed, e.g. ["MCX NATURALGAS bid"]. */
export function missingInputs(symbol: SpreadSymbol, prices: Prices): string[] {
  const { inst, cmeSide, mcxSide } = spreadLegs(symbol);
  const { cme, mcx } = rowPrices(symbol, prices);
  const missing: string[] = [];
  if (cme === undefined) missing.push(`CME ${inst.cmeKey} ${cmeSide}`);
  if (mcx === undefined) missing.push(`MCX ${inst.mcxKey} ${mcxSide}`);
  if (prices.fx.USDINR === undefined) missing.push("USDINR");
  return missing;
}

const factorFormat = new Intl.NumberFormat("en-US", {
  maximumFractionDigits: 5,
  useGrouping: false,
});

/**
 * "CME 2650.000 × 0.32151 × USDINR 84.0000 × (1 + 6%) = parity 75861.62". The duty is read back
 * from the server's parity rather than assumed, so the line stays true if duties are configured.
 */
export function parityBreakdown(entry: CalculationEntry): string {
  const { id } = parseSpreadSymbol(entry.symbol);
  const { factor } = instrument(id);
  const duty = entry.parity / (entry.cme * factor * entry.usdinr) - 1;
  const dutyPercent = Number((duty * 100).toFixed(2));
  return [
    `CME ${formatNumber(entry.cme, cmePriceDecimals(id))}`,
    `× ${factorFormat.format(factor)}`,
    `× USDINR ${formatNumber(entry.usdinr, rawPriceDecimals("fx", "USDINR"))}`,
    `× (1 + ${dutyPercent}%)`,
    `= parity ${formatNumber(entry.parity, mcxPriceDecimals(id))}`,
  ].join(" ");
}
