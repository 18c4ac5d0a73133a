import { ZOOM_MODE_XY_TEXT, ZOOM_MODE_Y_TEXT } from "@spreadwatch/core";
import type uPlot from "uplot";

/** Which scales a wheel turn zooms, by where the pointer is (docs/spec.md §2). */
export type ZoomRegion = "xy" | "y" | "x";

/** Not one of the spec's two badge texts: the spec names x-only zoom below the plot, no text. */
export const ZOOM_MODE_X_TEXT = "Zoom Mode: Horizontal (X)";

export const ZOOM_MODE_TEXT: Readonly<Record<ZoomRegion, string>> = {
  xy: ZOOM_MODE_XY_TEXT,
  y: ZOOM_MODE_Y_TEXT,
  x: ZOOM_MODE_X_TEXT,
};

/**
 * Over the plot both axes; over the (right-hand) y axis beside the plot, y only; below the
 * plot, over the time axis, x only. Elsewhere (outside the chart) nothing.
 */
export function zoomRegionAt(u: uPlot, clientX: number, clientY: number): ZoomRegion | undefined {
  const plot = u.over.getBoundingClientRect();
  const chart = u.root.getBoundingClientRect();
  const inChart =
    clientX >= chart.left &&
    clientX <= chart.right &&
    clientY >= chart.top &&
    clientY <= chart.bottom;
  if (!inChart) return undefined;
  const besidePlot = clientY >= plot.top && clientY <= plot.bottom;
  if (besidePlot && clientX >= plot.left && clientX <= plot.right) return "xy";
  if (besidePlot && clientX > plot.right) return "y";
  if (clientY > plot.bottom) return "x";
  return undefined;
}
