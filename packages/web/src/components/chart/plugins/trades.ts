import type uPlot from "uplot";

/** A backtest's fill on the chart: where a trade entered or exited (docs/backtest.md). */
export interface TradeMark {
  at: number;
  value: number;
  kind: "entry-long" | "entry-short" | "exit";
  /** What a screen reader and the title say: "Sell 612.40", "Exit 301.20 (rule)". */
  label: string;
}

/**
 * A backtest's entries and exits as DOM marks over the plot (▲ buy, ▼ sell, ● exit) at each
 * fill's time and value. DOM rather than canvas so they stay crisp and can be read (and tested)
 * as text; `current` is read on every draw, so a new backtest is a redraw, not a rebuild.
 */
export function tradesPlugin(current: () => readonly TradeMark[]): uPlot.Plugin {
  const layer = document.createElement("div");
  layer.className = "chart-trades";
  return {
    hooks: {
      init: (u) => {
        u.over.append(layer);
      },
      draw: (u) => {
        const width = u.over.clientWidth;
        const height = u.over.clientHeight;
        const marks = current().map((mark) => {
          const x = u.valToPos(mark.at, "x");
          const y = u.valToPos(mark.value, "y");
          const el = document.createElement("span");
          el.className = `chart-trade chart-trade--${mark.kind}`;
          el.dataset.tradeAt = String(mark.at);
          el.title = mark.label;
          el.setAttribute("aria-label", mark.label);
          el.textContent =
            mark.kind === "entry-long" ? "▲" : mark.kind === "entry-short" ? "▼" : "●";
          el.hidden = !(x >= 0 && x <= width && y >= 0 && y <= height);
          el.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
          return el;
        });
        layer.replaceChildren(...marks);
      },
    },
  };
}
