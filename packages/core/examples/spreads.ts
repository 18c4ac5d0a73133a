/**
 * Prints the ten spreads for one set of prices, using core exactly as a backtest would.
 * Run from the repository root: pnpm exec tsx packages/core/examples/spreads.ts
 */
import {
  applyQuote,
  calculateAll,
  defaultDuties,
  emptyPrices,
  formatSigned,
  type Quote,
  SPREAD_SYMBOLS,
  spreadDecimals,
  spreadSymbolLabel,
} from "@spreadwatch/core";

// core compiles without Node or DOM types (it may not do I/O); this script is the edge that may.
declare const console: { log(...values: unknown[]): void };

const quotes: Quote[] = [
  { source: "fx", key: "USDINR", price: 84, ts: 0 },
  { source: "cme", key: "GC", bid: 2650, ask: 2650.4, ts: 0 },
  { source: "mcx", key: "GOLD", bid: 76400, ask: 76420, ts: 0 },
  { source: "cme", key: "CL", bid: 70.1, ask: 70.12, ts: 0 },
  { source: "mcx", key: "CRUDEOIL", bid: 5900, ask: 5902, ts: 0 },
];

const prices = emptyPrices();
for (const quote of quotes) applyQuote(prices, quote);
const calculations = calculateAll(prices, defaultDuties());

for (const symbol of SPREAD_SYMBOLS) {
  const spread = calculations[symbol]?.spread;
  console.log(
    `${spreadSymbolLabel(symbol).padEnd(18)} ${formatSigned(spread, spreadDecimals(symbol))}`,
  );
}
