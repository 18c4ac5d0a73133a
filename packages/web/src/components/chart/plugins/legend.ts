import { CHART_SERIES_LABEL, formatNumber } from "@spreadwatch/core";
import uPlot from "uplot";
import { valueScale } from "../valueScale.ts";
import { CLOSE, HIGH, LOW, OPEN } from "../view.ts";

const FIELDS = [
  ["Open", OPEN],
  ["High", HIGH],
  ["Low", LOW],
  ["Close", CLOSE],
] as const;

/** Space between the legend and the plot's top row, in CSS pixels. */
const GAP_PX = 4;
/** The band reserved before the legend is in the page (the chart's first layout pass). */
const FIRST_BAND_PX = 24;

/**
 * The OHLC legend above the plot's top-left corner: "Spread Value" (docs/spec.md §2) and the
 * hovered candle's Open, High, Low and Close to 2 decimals — the latest candle's when not hovering.
 * It sits in a band of top padding as tall as it is, so it never covers the line: on a phone it
 * wraps to two or three rows, which over the plot hid the top of the line.
 */
export function legendPlugin(): uPlot.Plugin {
  const box = document.createElement("div");
  box.className = "chart-legend";
  box.dataset.testid = "chart-legend";
  const name = document.createElement("span");
  name.className = "chart-legend__name";
  name.textContent = CHART_SERIES_LABEL;
  box.append(name);
  const values = FIELDS.map(([label]) => {
    const item = document.createElement("span");
    item.className = "chart-legend__item";
    const key = document.createElement("span");
    key.className = "chart-legend__key";
    key.textContent = label;
    const value = document.createElement("span");
    value.className = "chart-legend__value";
    item.append(key, " ", value);
    box.append(item);
    return value;
  });

  /** The legend's height at the plot's width, plus the gap. */
  const measure = (u: uPlot): number => {
    box.style.maxWidth = `${Math.max(0, u.bbox.width / uPlot.pxRatio - 16)}px`;
    return Math.ceil(box.offsetHeight) + GAP_PX;
  };
  let reserved = FIRST_BAND_PX;
  /** The top padding, read by uPlot on every layout pass. */
  const band = (u: uPlot): number => {
    if (box.isConnected) reserved = measure(u);
    return reserved;
  };

  const show = (u: uPlot, idx: number | null | undefined) => {
    const i = idx ?? u.data[0].length - 1;
    FIELDS.forEach(([, series], k) => {
      const el = values[k];
      if (el) el.textContent = formatNumber(u.data[series]?.[i], valueScale().decimals);
    });
    box.dataset.hovered = String(idx != null);
    // Wider figures may wrap the legend onto another row: lay the chart out again for it.
    if (box.isConnected && measure(u) !== reserved) {
      u.setSize({ width: u.width, height: u.height });
    }
  };

  return {
    opts: (_u, opts) => ({ ...opts, padding: [band, null, null, null] }),
    hooks: {
      init: (u) => {
        u.over.append(box);
      },
      // New data (a live update, older candles) re-reads the same candle or the new latest.
      setData: (u) => show(u, hovered(u)),
      setCursor: (u) => show(u, hovered(u)),
    },
  };
}

/** The hovered candle's index; null while the pointer is off the plot (uPlot keeps a stale idx). */
function hovered(u: uPlot): number | null {
  const { left, idx } = u.cursor;
  return left != null && left >= 0 ? (idx ?? null) : null;
}
