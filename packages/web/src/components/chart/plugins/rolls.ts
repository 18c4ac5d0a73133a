import type uPlot from "uplot";

/** A roll to mark: where, and what it says ("GOLD near: 26FEB → 26APR"). */
export interface RollMark {
  key: string;
  at: number;
  label: string;
}

/** Labels closer than this (px) go on the next row, so two rolls a day apart stay readable. */
const LABEL_ROOM_PX = 170;
const ROWS = 3;

/**
 * Each roll of the chart's legs as a vertical mark with its label along the bottom of the plot (the OHLC legend holds the top). DOM
 * marks like the alert lines, so they stay crisp and read (and test) as text; `current` is read
 * on every draw, so rolls arriving later are a redraw, not a rebuild.
 */
export function rollsPlugin(current: () => readonly RollMark[]): uPlot.Plugin {
  const layer = document.createElement("div");
  layer.className = "chart-rolls";
  return {
    hooks: {
      init: (u) => {
        u.over.append(layer);
      },
      draw: (u) => {
        const width = u.over.clientWidth;
        const rowEnds = new Array<number>(ROWS).fill(Number.NEGATIVE_INFINITY);
        const marks = current().map((roll) => {
          const x = u.valToPos(roll.at, "x");
          const mark = document.createElement("div");
          mark.className = "chart-roll";
          mark.dataset.rollKey = roll.key;
          mark.dataset.rollAt = String(roll.at);
          mark.hidden = !(x >= 0 && x <= width);
          mark.style.transform = `translateX(${Math.round(x)}px)`;
          const row = Math.max(
            0,
            rowEnds.findIndex((end) => x - end >= LABEL_ROOM_PX),
          );
          rowEnds[row] = x;
          const label = document.createElement("span");
          label.className = "chart-roll__label";
          // Near the right edge the label hangs to the left of its mark.
          label.classList.toggle("chart-roll__label--left", x > width - LABEL_ROOM_PX);
          label.style.bottom = `${4 + row * 18}px`;
          label.textContent = roll.label;
          mark.append(label);
          return mark;
        });
        layer.replaceChildren(...marks);
      },
    },
  };
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
