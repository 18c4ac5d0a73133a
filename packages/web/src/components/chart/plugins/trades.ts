import type uPlot from "uplot";
import { inPlot, markLayerPlugin } from "./layer.ts";

/** A backtest's fill on the chart: where a trade entered or exited (docs/backtest.md). */
export interface TradeMark {
  at: number;
  value: number;
  kind: "entry-long" | "entry-short" | "exit";
  /** What a screen reader and the title say: "Sell 612.40", "Exit 301.20 (rule)". */
  label: string;
}

/**
 * A backtest's entries and exits as marks over the plot (▲ buy, ▼ sell, ● exit) at each fill's
 * time and value, redrawn from `current` (layer.ts).
 */
export function tradesPlugin(current: () => readonly TradeMark[]): uPlot.Plugin {
  return markLayerPlugin("chart-trades", (u) =>
    current().map((mark) => {
      const x = u.valToPos(mark.at, "x");
      const y = u.valToPos(mark.value, "y");
      const el = document.createElement("span");
      el.className = `chart-trade chart-trade--${mark.kind}`;
      el.dataset.tradeAt = String(mark.at);
      el.title = mark.label;
      el.setAttribute("aria-label", mark.label);
      el.textContent = mark.kind === "entry-long" ? "▲" : mark.kind === "entry-short" ? "▼" : "●";
      el.hidden = !inPlot(u, x, y);
      el.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
      return el;
    }),
  );
}
