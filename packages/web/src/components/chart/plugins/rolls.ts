import type uPlot from "uplot";
import { inPlot, markLayerPlugin } from "./layer.ts";

/** A roll to mark: where, and what it says ("GOLD near: 26FEB → 26APR"). */
export interface RollMark {
  key: string;
  at: number;
  label: string;
}

/** Label rows along the bottom; a label that would cover another goes up a row. */
const ROWS = 3;
const ROW_PX = 18;
const GAP_PX = 4;

/**
 * Each roll of the chart's legs as a vertical mark with its label along the bottom of the plot
 * (the OHLC legend sits above the top), redrawn from `current` (layer.ts), so rolls arriving later
 * are a redraw, not a rebuild.
 */
export function rollsPlugin(current: () => readonly RollMark[]): uPlot.Plugin {
  let placed: { x: number; label: HTMLElement; hidden: boolean }[] = [];
  const render = (u: uPlot) => {
    const marks = current().map((roll) => {
      const x = Math.round(u.valToPos(roll.at, "x"));
      const mark = document.createElement("div");
      mark.className = "chart-roll";
      mark.dataset.rollKey = roll.key;
      mark.dataset.rollAt = String(roll.at);
      mark.hidden = !inPlot(u, x, 0);
      mark.style.transform = `translateX(${x}px)`;
      const label = document.createElement("span");
      label.className = "chart-roll__label";
      label.textContent = roll.label;
      mark.append(label);
      return { x, label, hidden: mark.hidden, mark };
    });
    placed = marks;
    return marks.map((m) => m.mark);
  };
  // Measured once in the layer: each label right of its mark, kept inside the plot (near the
  // right edge it shifts left), and up a row where it would cover the one before.
  const placeLabels = (u: uPlot) => {
    const width = u.over.clientWidth;
    const rowEnds = new Array<number>(ROWS).fill(Number.NEGATIVE_INFINITY);
    for (const { x, label, hidden } of placed) {
      if (hidden) continue;
      const w = label.offsetWidth;
      const left = Math.max(0, Math.min(x + GAP_PX, width - w - GAP_PX));
      const row = Math.max(
        0,
        rowEnds.findIndex((end) => left >= end + GAP_PX),
      );
      rowEnds[row] = left + w;
      label.style.left = `${left - x}px`;
      label.style.bottom = `${GAP_PX + row * ROW_PX}px`;
    }
  };
  return markLayerPlugin("chart-rolls", render, placeLabels);
}

/**
 * The line's gaps plus one at each roll, so the last candle of one contract and the first of the
 * next are never joined by a stroke (uPlot's `gaps` refiner works in canvas pixels).
 */
export function rollGaps(
  u: uPlot,
  rolls: readonly RollMark[],
  nullGaps: uPlot.Series.Gaps,
): uPlot.Series.Gaps {
  if (rolls.length === 0) return nullGaps;
  const xs = u.data[0];
  const gaps = [...nullGaps];
  for (const roll of rolls) {
    const after = xs.findIndex((t) => t >= roll.at);
    if (after <= 0) continue;
    const from = Math.round(u.valToPos(xs[after - 1] as number, "x", true)) + 1;
    const to = Math.round(u.valToPos(xs[after] as number, "x", true)) - 1;
    if (to > from) gaps.push([from, to]);
  }
  return gaps.sort((a, b) => a[0] - b[0]);
}
