import { CHART_SERIES_LABEL, formatNumber } from "@spreadwatch/core";
import type uPlot from "uplot";
import { valueScale } from "../valueScale.ts";
import { CLOSE, HIGH, LOW, OPEN } from "../view.ts";

const FIELDS = [
  ["Open", OPEN],
  ["High", HIGH],
  ["Low", LOW],
  ["Close", CLOSE],
] as const;

/**
 * The OHLC legend over the plot's top-left corner: "Spread Value" (docs/spec.md §2) and the hovered
 * candle's Open, High, Low and Close to 2 decimals — the latest candle's when not hovering.
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

  const show = (u: uPlot, idx: number | null | undefined) => {
    const i = idx ?? u.data[0].length - 1;
    FIELDS.forEach(([, series], k) => {
      const el = values[k];
      if (el) el.textContent = formatNumber(u.data[series]?.[i], valueScale().decimals);
    });
    box.dataset.hovered = String(idx != null);
  };

  return {
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
