import type { AxisRange } from "@spreadwatch/core";
import type uPlot from "uplot";
import { clampZoom } from "../valueScale.ts";

export interface TouchOptions {
  /** The narrowest x range a pinch may reach, as for the wheel. */
  minXRange: number;
}

/** A finger that moves less than this is still a tap or a long press (levelPick's slop). */
const SLOP_PX = 6;
/** Fingers closer than this along an axis are too noisy to zoom that axis by. */
const MIN_SPAN_PX = 40;

interface Start {
  x: AxisRange;
  y: AxisRange;
  plot: DOMRect;
  touches: { x: number; y: number }[];
  /** A single finger has moved past the slop: it pans from here on. */
  panning: boolean;
}

/**
 * Touch on the plot: one finger drags the view like Shift + drag (the data follows the
 * finger, so panning past the oldest candle loads older ones through olderEdge's setScale
 * hook); two fingers pinch-zoom x about the pinch centre, and y too when the fingers lie
 * mostly vertical (never narrower than 10, clampYZoom). A still finger is left to levelPick's
 * long press; the plot's `touch-action: none` (chart.css) keeps the browser from scrolling.
 */
export function touchPlugin({ minXRange }: TouchOptions): uPlot.Plugin {
  return {
    hooks: {
      ready: (u) => {
        let start: Start | undefined;
        // Every change in the number of fingers restarts the gesture from the current view,
        // so lifting one finger of a pinch continues as a pan without a jump.
        const begin = (e: TouchEvent) => {
          const { x, y } = u.scales;
          const fingers = [...e.touches].map((t) => ({ x: t.clientX, y: t.clientY }));
          start =
            x?.min == null || x.max == null || y?.min == null || y.max == null || !fingers.length
              ? undefined
              : {
                  x: { min: x.min, max: x.max },
                  y: { min: y.min, max: y.max },
                  plot: u.over.getBoundingClientRect(),
                  touches: fingers,
                  panning: e.type !== "touchstart",
                };
        };
        const move = (e: TouchEvent) => {
          if (!start) return;
          e.preventDefault();
          const [a, b] = e.touches;
          if (!a) return;
          if (b && start.touches.length >= 2) pinch(u, start, a, b, minXRange);
          else if (start.touches.length === 1) pan(u, start, a);
        };
        u.over.addEventListener("touchstart", begin, { passive: true });
        u.over.addEventListener("touchmove", move, { passive: false });
        u.over.addEventListener("touchend", begin);
        u.over.addEventListener("touchcancel", begin);
      },
    },
  };
}

function pan(u: uPlot, start: Start, finger: Touch): void {
  const [from] = start.touches;
  if (!from) return;
  const movedX = finger.clientX - from.x;
  const movedY = finger.clientY - from.y;
  if (!start.panning && Math.hypot(movedX, movedY) <= SLOP_PX) return;
  start.panning = true;
  const dx = (movedX * (start.x.max - start.x.min)) / start.plot.width;
  const dy = (movedY * (start.y.max - start.y.min)) / start.plot.height;
  u.batch(() => {
    u.setScale("x", { min: start.x.min - dx, max: start.x.max - dx });
    u.setScale("y", { min: start.y.min + dy, max: start.y.max + dy });
  });
}

function pinch(u: uPlot, start: Start, a: Touch, b: Touch, minXRange: number): void {
  const [a0, b0] = start.touches;
  if (!a0 || !b0) return;
  const { plot } = start;
  const span0 = { x: Math.abs(a0.x - b0.x), y: Math.abs(a0.y - b0.y) };
  const span = { x: Math.abs(a.clientX - b.clientX), y: Math.abs(a.clientY - b.clientY) };
  u.batch(() => {
    if (span0.x >= MIN_SPAN_PX && span.x >= MIN_SPAN_PX) {
      // The time under the starting centre stays under the moving centre.
      const at0 = ((a0.x + b0.x) / 2 - plot.left) / plot.width;
      const at = ((a.clientX + b.clientX) / 2 - plot.left) / plot.width;
      const x = scaleAbout(start.x, at0, at, span0.x / span.x);
      u.setScale("x", widen(x, minXRange, at));
    }
    if (span0.y > span0.x && span0.y >= MIN_SPAN_PX && span.y >= MIN_SPAN_PX) {
      // Screen y grows downwards, values upwards.
      const at0 = 1 - ((a0.y + b0.y) / 2 - plot.top) / plot.height;
      const at = 1 - ((a.clientY + b.clientY) / 2 - plot.top) / plot.height;
      const y = scaleAbout(start.y, at0, at, span0.y / span.y);
      const clamped = clampZoom(y.min, y.max);
      if (clamped) u.setScale("y", clamped);
    }
  });
}

/** The range `factor` times as wide, with the value at `from` (0…1 along it) moved to `to`. */
function scaleAbout(range: AxisRange, from: number, to: number, factor: number): AxisRange {
  const pivot = range.min + (range.max - range.min) * from;
  const width = (range.max - range.min) * factor;
  return { min: pivot - width * to, max: pivot + width * (1 - to) };
}

function widen(range: AxisRange, minRange: number, at: number): AxisRange {
  const width = range.max - range.min;
  if (width >= minRange) return range;
  const pivot = range.min + width * at;
  return { min: pivot - minRange * at, max: pivot + minRange * (1 - at) };
}
