import { formulaShape, isSpreadSymbol } from "@spreadwatch/core";
import { isDefinitionSymbol } from "../../market/chartSymbols.ts";
import { coverageText, type StatisticsCoverage } from "../../market/statisticsCoverage.ts";

/** docs/spec.md §2's hint beside Reset Zoom. */
export const ZOOM_HINT =
  "Mouse wheel zooms. Over an axis it zooms that axis only (below the plot: time only). Shift + drag pans.";

/**
 * The same hint on touch screens, which have neither a wheel nor Shift (docs/user-guide.md,
 * "Advanced Spread Chart").
 */
export const TOUCH_ZOOM_HINT =
  "Pinch to zoom, drag with one finger to pan, long-press a price to create an alert.";

/** What the keys do on the focused plot (keyboardLevel.ts). */
export function keyboardHint(canCreateAlerts: boolean): string {
  const keys = "Keyboard: Tab to the chart, ↑ ↓ move the price line, ← → step through candles";
  return canCreateAlerts ? `${keys}, Enter creates an alert at the price.` : `${keys}.`;
}

/** A finger is the main pointer: phones and tablets, not a laptop that also has a touch screen. */
export const TOUCH_SCREEN = "(pointer: coarse)";

/** The info box on the sign of the values, in the terms of the symbol's own spread (docs/design.md §2). */
export function spreadSignText(
  symbol: string,
  definitionFormula?: string,
): {
  formula: string;
  above: string;
  below: string;
} {
  if (isDefinitionSymbol(symbol)) {
    const buy = symbol.endsWith("_BUY");
    return {
      formula: `Spread = ${definitionFormula ?? "the definition's formula"}, ${
        buy
          ? "each leg at the side buying the spread takes (ask when it rises with the leg, bid when it falls)"
          : "each leg at the side selling the spread takes"
      }.`,
      ...definitionSign(definitionFormula),
    };
  }
  if (isSpreadSymbol(symbol)) {
    return {
      formula:
        "Spread = MCX price − parity, the CME price converted to MCX units with USDINR and import duty.",
      above: "Above 0: MCX is higher than parity.",
      below: "Below 0: MCX is lower than parity.",
    };
  }
  if (symbol === "NIFTY") {
    return {
      formula: "Index spread = GIFT NIFTY − NIFTY 50, in points.",
      above: "Above 0: GIFT NIFTY is higher than NIFTY 50.",
      below: "Below 0: GIFT NIFTY is lower.",
    };
  }
  return {
    formula: "Spot spread = CME future mid − spot price, in USD.",
    above: "Above 0: the future is higher than spot.",
    below: "Below 0: the future is lower than spot.",
  };
}

/**
 * A definition's sign in the terms of its formula's outermost operator (formulaShape): which
 * side is higher for a difference, against 1 for a ratio, the formula's own sign otherwise.
 */
function definitionSign(formula: string | undefined): { above: string; below: string } {
  const shape = formula ? formulaShape(formula) : ({ kind: "other" } as const);
  if (shape.kind === "difference") {
    return {
      above: `Above 0: ${shape.left} is higher than ${shape.right}.`,
      below: `Below 0: ${shape.left} is lower.`,
    };
  }
  if (shape.kind === "ratio") {
    return {
      above: `Above 1: ${shape.left} is higher than ${shape.right}.`,
      below: `Below 1: ${shape.left} is lower.`,
    };
  }
  const value = formula ?? "the formula";
  return { above: `Above 0: ${value} is positive.`, below: "Below 0: it is negative." };
}

/**
 * Which series the statistics (bands, z, percentile) are of (docs/history.md "Statistics of the
 * contracts held"): the contracts the legs quote now, or the recorded series where the feed
 * names no contracts; always as quoted, whatever the chart's Back-adjusted toggle shows. While
 * the past loads it says how much is in so far.
 */
export function statisticsSourceText(stats: {
  days: number;
  coverage: StatisticsCoverage;
}): string {
  const contracts = Object.values(stats.coverage.contracts);
  const series =
    contracts.length > 0
      ? `the contracts quoted now (${contracts.join(", ")})`
      : "the recorded series";
  if (stats.coverage.loading)
    return `Statistics: ${series}, as quoted, ${coverageText(stats.days, stats.coverage)}`;
  return `Statistics: ${series}, ${stats.days} days as quoted`;
}
