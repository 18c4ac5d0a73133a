import type uPlot from "uplot";
import { formatValue } from "../valueScale.ts";
import { CLOSE } from "../view.ts";

/** A label pinned over the right-hand y axis at a value's height. */
function axisTag(className: string): HTMLDivElement {
  const tag = document.createElement("div");
  tag.className = `chart-axis-tag ${className}`;
  tag.hidden = true;
  return tag;
}

/**
 * The price level at `top` px from the plot's top, as the y axis writes it: rounded once, to the
 * axis tags' decimals. The crosshair's tag and "Create alert at …" both read it, so the offer is
 * always the price shown under the pointer or finger.
 */
export function levelAt(u: uPlot, top: number): number {
  return Number(formatValue(u.posToVal(top, "y")));
}

/** Places the tag at `value` on the y axis; hidden when the value is outside the y range. */
function place(u: uPlot, tag: HTMLElement, value: number | null | undefined): void {
  const y = value == null ? Number.NaN : u.valToPos(value, "y");
  const inside = Number.isFinite(y) && y >= 0 && y <= u.over.clientHeight;
  tag.hidden = !inside;
  if (!inside || value == null) return;
  tag.textContent = formatValue(value);
  tag.style.transform = `translateY(${Math.round(y)}px) translateY(-50%)`;
}

/**
 * The live value on the y axis: a tag at the last close, green above zero and red below,
 * so the current spread reads off the axis however far the chart is panned.
 */
export function lastValuePlugin(): uPlot.Plugin {
  const tag = axisTag("chart-axis-tag--last");
  tag.dataset.testid = "chart-last-value";
  return {
    hooks: {
      init: (u) => {
        u.over.append(tag);
      },
      draw: (u) => {
        const close = u.data[CLOSE];
        const last = close?.[close.length - 1];
        place(u, tag, last);
        tag.classList.toggle("chart-axis-tag--up", last != null && last > 0);
        tag.classList.toggle("chart-axis-tag--down", last != null && last < 0);
      },
    },
  };
}

/** The crosshair's y value on the y axis, while the pointer is over the plot. */
export function cursorValuePlugin(): uPlot.Plugin {
  const tag = axisTag("chart-axis-tag--cursor");
  tag.dataset.testid = "chart-cursor-value";
  return {
    hooks: {
      init: (u) => {
        u.over.append(tag);
      },
      setCursor: (u) => {
        const top = u.cursor.top;
        if (top == null || top < 0) {
          tag.hidden = true;
          return;
        }
        place(u, tag, levelAt(u, top));
      },
    },
  };
}
