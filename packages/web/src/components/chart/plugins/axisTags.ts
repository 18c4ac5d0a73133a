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
 * How near (px, centre to centre) a y axis label may come to the live value's tag: the tag is
 * 18 px tall and a label ~13, so a label nearer than this would be half hidden under it.
 */
export const TAG_CLEARANCE_PX = 16;

/**
 * The y axis's ticks with those under the live value's tag left out (null: uPlot writes no
 * label there, and keeps the grid line), as trading charts hide the axis price the last-price
 * tag covers. `tagAt` is the tag's centre in px from the plot's top; `pos` a tick's.
 */
export function ticksClearOfTag(
  splits: readonly number[],
  tagAt: number | undefined,
  pos: (value: number) => number,
): (number | null)[] {
  if (tagAt === undefined || !Number.isFinite(tagAt)) return [...splits];
  return splits.map((value) => (Math.abs(pos(value) - tagAt) < TAG_CLEARANCE_PX ? null : value));
}

function lastClose(u: uPlot): number | null | undefined {
  const close = u.data[CLOSE];
  return close?.[close.length - 1];
}

/**
 * The live value on the y axis: a tag at the last close, green above zero and red below,
 * so the current spread reads off the axis however far the chart is panned. The axis label it
 * would cover is left out; uPlot works its labels out only when the axes are recalculated, so
 * when the tag moves onto or off a label the plugin asks for that once.
 */
export function lastValuePlugin(): uPlot.Plugin {
  const tag = axisTag("chart-axis-tag--last");
  tag.dataset.testid = "chart-last-value";
  let ticks: readonly number[] = [];
  let hidden = "";
  const clear = (u: uPlot) => {
    const last = lastClose(u);
    const tagAt = last == null ? undefined : u.valToPos(last, "y");
    return ticksClearOfTag(ticks, tagAt, (value) => u.valToPos(value, "y"));
  };
  const hiddenOf = (kept: readonly (number | null)[]) =>
    kept.map((value) => (value === null ? "x" : "-")).join("");
  return {
    opts: (_u, opts) => {
      const yAxis = opts.axes?.[1];
      if (!yAxis) return;
      const size = yAxis.size;
      yAxis.filter = (u, splits) => {
        ticks = splits;
        const kept = clear(u);
        hidden = hiddenOf(kept);
        return kept;
      };
      // The axis is as wide as its widest label, hidden or not: it never narrows as the tag moves.
      if (typeof size === "function") {
        yAxis.size = (u, _values, axisIdx, cycle) =>
          size(u, ticks.map(formatValue), axisIdx, cycle);
      }
    },
    hooks: {
      init: (u) => {
        u.over.append(tag);
      },
      draw: (u) => {
        const last = lastClose(u);
        place(u, tag, last);
        tag.classList.toggle("chart-axis-tag--up", last != null && last > 0);
        tag.classList.toggle("chart-axis-tag--down", last != null && last < 0);
        if (hiddenOf(clear(u)) === hidden) return;
        // Not from inside this draw; and not on a chart destroyed in the meantime.
        queueMicrotask(() => {
          if (u.root.isConnected) u.redraw(false, true);
        });
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
