import { formatNumber, spreadDecimals, thresholdDecimals } from "@spreadwatch/core";
import { isDefinitionSymbol } from "../market/chartSymbols.ts";
import { definitionDecimals } from "../market/definitionRows.ts";

/**
 * docs/spec.md §5: the threshold field accepts only an optional minus, digits and one decimal point.
 * Whatever arrives (a keystroke, a paste, autofill) is reduced to those characters: a minus
 * only in front, the first point only.
 */
export function sanitizeThreshold(text: string): string {
  let out = "";
  let point = false;
  for (const char of text) {
    if (char >= "0" && char <= "9") out += char;
    else if (char === "-" && out === "") out = "-";
    else if (char === "." && !point) {
      point = true;
      out += ".";
    }
  }
  return out;
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)$/;

/** The threshold a field holds, or undefined when it is not a number ("", "-", "."). */
export function parseThreshold(text: string): number | undefined {
  const trimmed = text.trim();
  if (!NUMBER.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

export const INVALID_THRESHOLD = "Please enter a valid number for the threshold.";

/** A threshold as the alert list shows it (docs/spec.md §9): 4 decimals for NG, CL, HG, else 2. */
export function formatThreshold(symbol: string, threshold: number): string {
  // A definition's decimals follow its size: a ratio's 0.8123 needs 4 (definitionRows.ts).
  if (isDefinitionSymbol(symbol)) return formatNumber(threshold, definitionDecimals(threshold));
  return formatNumber(threshold, thresholdDecimals(symbol));
}

/** A built-in's spread decimals, or a definition's from the size of its value. */
export function valueDecimals(symbol: string, value: number): number {
  return isDefinitionSymbol(symbol) ? definitionDecimals(value) : spreadDecimals(symbol);
}
