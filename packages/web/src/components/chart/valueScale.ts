import { clampYZoom, formatSigned } from "@spreadwatch/core";

/**
 * The size of the chart's values: the built-in spreads are read to 2 decimals with a y range no
 * narrower than 10 (docs/spec.md §5); a spread of one's own near 1 (a gold/silver ratio of
 * 0.92) would be a flat line in that range, so it is drawn in thousandths: 4 decimals, a range
 * no narrower than 0.01 (docs/user-guide.md "Spreads of your own").
 */
export interface ValueScale {
  /** What the spec's 10 (zoom) and 5 (padding) are multiplied by. */
  unit: number;
  decimals: number;
}

export const SPREAD_SCALE: ValueScale = { unit: 1, decimals: 2 };
export const FINE_SCALE: ValueScale = { unit: 0.001, decimals: 4 };

// One chart per page: SpreadChart sets this before it builds the plot, and the plugins read it
// while drawing, so no plugin factory and no axis rule needs another argument threaded through.
let current: ValueScale = SPREAD_SCALE;

export function setValueScale(scale: ValueScale): void {
  current = scale;
}

export function valueScale(): ValueScale {
  return current;
}

/** A y-axis value as the axis, its tags and the price level write it: "+12.50", "+0.9237". */
export function formatValue(value: number): string {
  return formatSigned(value, current.decimals);
}

/** clampYZoom in the scale's units: never narrower than 10 of them. */
export function clampZoom(min: number, max: number): { min: number; max: number } | undefined {
  const { unit } = current;
  const clamped = clampYZoom(min / unit, max / unit);
  return clamped && { min: clamped.min * unit, max: clamped.max * unit };
}
