import { formatChartTitle, formatNumber } from "@spreadwatch/core";
import type uPlot from "uplot";
import { valueScale } from "../valueScale.ts";
import { CLOSE, HIGH, LOW, OPEN } from "../view.ts";

const ROWS = [
  ["Open", OPEN],
  ["High", HIGH],
  ["Low", LOW],
  ["Close", CLOSE],
] as const;

const GAP_PX = 14;

/**
 * The hovered candle (docs/spec.md §2): its start as 'MMM dd, yyyy HH:mm' in IST, then Open, High,
 * Low and Close to 2 decimals. Follows the pointer inside the plot and flips to stay inside.
 */
export function tooltipPlugin(): uPlot.Plugin {
  const box = document.createElement("div");
  box.className = "chart-tooltip";
  box.setAttribute("role", "tooltip");
  box.hidden = true;
  const title = document.createElement("p");
  title.className = "chart-tooltip__title";
  const list = document.createElement("dl");
  list.className = "chart-tooltip__values";
  const values = ROWS.map(([label]) => {
    const dt = document.createElement("dt");
    dt.textContent = label;
    const dd = document.createElement("dd");
    list.append(dt, dd);
    return dd;
  });
  box.append(title, list);

  return {
    hooks: {
      init: (u) => {
        u.over.append(box);
      },
      setCursor: (u) => {
        const { idx, left, top } = u.cursor;
        const time = idx == null ? undefined : u.data[0][idx];
        if (idx == null || time === undefined || left == null || left < 0 || top == null) {
          box.hidden = true;
          return;
        }
        title.textContent = formatChartTitle(time);
        ROWS.forEach(([, series], i) => {
          const dd = values[i];
          if (dd) dd.textContent = formatNumber(u.data[series]?.[idx], valueScale().decimals);
        });
        box.hidden = false;
        const plotWidth = u.over.clientWidth;
        const plotHeight = u.over.clientHeight;
        const x =
          left + GAP_PX + box.offsetWidth > plotWidth
            ? left - GAP_PX - box.offsetWidth
            : left + GAP_PX;
        const y = Math.min(Math.max(0, top - box.offsetHeight / 2), plotHeight - box.offsetHeight);
        box.style.transform = `translate(${Math.max(0, x)}px, ${Math.max(0, y)}px)`;
      },
    },
  };
}
