import type uPlot from "uplot";
import { inPlot, markLayerPlugin } from "./layer.ts";

export interface ThresholdLine {
  id: number;
  value: number;
  /** The threshold as the alert list writes it, e.g. "100.00". */
  label: string;
  enabled: boolean;
}

/**
 * The user's alert thresholds for the shown symbol as horizontal lines across the plot, each
 * labelled with its threshold; dashed when the alert is disabled. Redrawn from `current`
 * (layer.ts), so a changed alert list is a redraw, not a rebuild.
 */
export function thresholdsPlugin(current: () => readonly ThresholdLine[]): uPlot.Plugin {
  return markLayerPlugin("chart-thresholds", (u) => {
    const lines = [...current()].sort((a, b) => b.value - a.value);
    // Whole pixels for the lines and the nudges alike: rounding each on its own let two
    // labels a tick apart overlap by a pixel.
    const ys = lines.map((line) => Math.round(u.valToPos(line.value, "y")));
    const nudges = labelNudges(ys);
    return lines.map((line, i) => {
      const y = ys[i] ?? 0;
      const row = document.createElement("div");
      row.className = "chart-threshold";
      row.classList.toggle("chart-threshold--disabled", !line.enabled);
      row.dataset.threshold = String(line.value);
      row.hidden = !inPlot(u, 0, y);
      row.style.transform = `translateY(${y}px)`;
      const label = document.createElement("span");
      label.className = "chart-threshold__label";
      label.textContent = line.enabled ? `Alert ${line.label}` : `Alert ${line.label} (off)`;
      if (nudges[i]) label.style.transform = `translateY(${nudges[i]}px)`;
      row.append(label);
      return row;
    });
  });
}

/** A label's height in px (11 px type with its line height), and the gap kept between two. */
const LABEL_PX = 16;

/**
 * How far down each label moves (px) so none covers another: `ys` are the lines' positions,
 * top to bottom; each label sits just above its line, or, if the one above is in the way,
 * just below that one. Thresholds a few ticks apart stay readable.
 */
export function labelNudges(ys: readonly number[]): number[] {
  let freeFrom = Number.NEGATIVE_INFINITY;
  return ys.map((y) => {
    const top = Math.max(y - LABEL_PX, freeFrom);
    freeFrom = top + LABEL_PX;
    return Math.round(top - (y - LABEL_PX));
  });
}
