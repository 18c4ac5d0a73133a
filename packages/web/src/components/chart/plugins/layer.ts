import type uPlot from "uplot";

/**
 * A layer of DOM marks over the plot (alert lines, rolls, a backtest's fills), rebuilt from
 * `render` on every draw: DOM rather than canvas strokes so the marks stay crisp and read (and
 * test) as text, and whatever `render` reads is read again on each draw, so new marks are a
 * redraw, not a rebuild. `placed` runs once the marks are in the page, for what must measure them.
 */
export function markLayerPlugin(
  className: string,
  render: (u: uPlot) => readonly HTMLElement[],
  placed?: (u: uPlot) => void,
): uPlot.Plugin {
  const layer = document.createElement("div");
  layer.className = className;
  return {
    hooks: {
      init: (u) => {
        u.over.append(layer);
      },
      draw: (u) => {
        layer.replaceChildren(...render(u));
        placed?.(u);
      },
    },
  };
}

/** Whether a point (px from the plot's top-left) is inside the plot; marks outside are hidden. */
export function inPlot(u: uPlot, x: number, y: number): boolean {
  return x >= 0 && x <= u.over.clientWidth && y >= 0 && y <= u.over.clientHeight;
}
