import {
  chartSymbolValues,
  isChartSymbol,
  isSpreadSymbol,
  type Prices,
  parseExecutableSymbol,
  userSpreadId,
} from "@spreadwatch/core";
import { definitionEntry } from "./definitionRows.ts";

/**
 * A definition's executable symbol, SP7_BUY or SP7_SELL (docs/user-guide.md "Spreads of your own").
 * Whether the user may see it is the server's to say: the chart and the alert form only ask.
 */
export function isDefinitionSymbol(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const parsed = parseExecutableSymbol(value);
  return parsed !== undefined && userSpreadId(parsed.symbol) !== undefined;
}

/** A symbol the chart can show: a built-in chart symbol or a definition's. */
export function isChartCommodity(value: unknown): value is string {
  return isChartSymbol(value) || isDefinitionSymbol(value);
}

/** A symbol alerts exist for: a built-in executable spread (GC_BUY) or a definition's (SP7_BUY). */
export function isAlertable(symbol: string): boolean {
  return isSpreadSymbol(symbol) || isDefinitionSymbol(symbol);
}

/** The value a chart symbol has now: what its table row shows, or undefined when it has none. */
export function chartValueNow(
  calculations: object,
  prices: Prices,
  symbol: string,
): number | undefined {
  if (isChartSymbol(symbol))
    return chartSymbolValues(calculations as Parameters<typeof chartSymbolValues>[0], prices)[
      symbol
    ];
  return definitionEntry(calculations as Record<string, unknown>, symbol)?.spread;
}

/**
 * What the chart's live stream needs for `symbol` (docs/http-api.md, "Live stream"): a spread's
 * own entry, or the prices a spot or index spread is computed from in the browser.
 */
export function chartStreamSelection(symbol: string): { keys?: string[]; symbols?: string[] } {
  if (symbol === "XAU_SPOT") return { keys: ["GC", "XAUUSD"] };
  if (symbol === "XAG_SPOT") return { keys: ["SI", "XAGUSD"] };
  if (symbol === "NIFTY") return { keys: ["NIFTY50", "GIFTNIFTY"] };
  return { symbols: [symbol] };
}
