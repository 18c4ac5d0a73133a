import type { AxisRange } from "@spreadwatch/core";
import type uPlot from "uplot";
import { clampZoom } from "../valueScale.ts";
import { zoomRegionAt } from "../zoomRegion.ts";

export interface WheelZoomOptions {
  /** The narrowest x range a zoom may reach, e.g. two candles. */
  minXRange: number;
}

/** One wheel notch (100 px of deltaY) zooms in or out by this factor. */
const STEP = 1.25;

/**
 * Wheel zoom anchored at the pointer (docs/spec.md §2): over the plot both axes, over the y axis the
 * y axis only, below the plot the x axis only. The y range never gets narrower than 10
 * (clampYZoom, docs/spec.md §5).
 */
export function wheelZoomPlugin({ minXRange }: WheelZoomOptions): uPlot.Plugin {
  return {
    hooks: {
      ready: (u) => {
        u.root.addEventListener(
          "wheel",
          (e) => {
            const region = zoomRegionAt(u, e.clientX, e.clientY);
            if (!region || e.deltaY === 0) return;
            e.preventDefault();
            const notches = e.deltaMode === WheelEvent.DOM_DELTA_PIXEL ? e.deltaY / 100 : e.deltaY;
            const factor = STEP ** Math.max(-3, Math.min(3, notches));
            const plot = u.over.getBoundingClientRect();
            u.batch(() => {
              if (region !== "y") {
                const at = fraction(e.clientX - plot.left, plot.width);
                const x = zoomAround(u.scales.x, at, factor);
                if (x) u.setScale("x", widen(x, minXRange, at));
              }
              if (region !== "x") {
                const at = 1 - fraction(e.clientY - plot.top, plot.height);
                const y = zoomAround(u.scales.y, at, factor);
                const clamped = y && clampZoom(y.min, y.max);
                if (clamped) u.setScale("y", clamped);
              }
            });
          },
          { passive: false },
        );
      },
    },
  };
}

function fraction(offset: number, size: number): number {
  return size > 0 ? Math.max(0, Math.min(1, offset / size)) : 0.5;
}

/** The range scaled by `factor` about the point `at` (0…1 along it), which stays put. */
function zoomAround(
  scale: uPlot.Scale | undefined,
  at: number,
  factor: number,
): AxisRange | undefined {
  const min = scale?.min;
  const max = scale?.max;
  if (min == null || max == null) return undefined;
  const pivot = min + (max - min) * at;
  return { min: pivot - (pivot - min) * factor, max: pivot + (max - pivot) * factor };
}

function widen(range: AxisRange, minRange: number, at: number): AxisRange {
  const width = range.max - range.min;
  if (width >= minRange) return range;
  const pivot = range.min + width * at;
  return { min: pivot - minRange * at, max: pivot + minRange * (1 - at) };
}
