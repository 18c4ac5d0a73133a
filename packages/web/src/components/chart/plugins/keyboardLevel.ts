import type uPlot from "uplot";
import { formatValue } from "../valueScale.ts";
import { CLOSE } from "../view.ts";
import { levelAt } from "./axisTags.ts";
import type { LevelPick } from "./levelPick.ts";

/** The id of the hint that tells keyboard users what the keys do (ChartNotes renders it). */
export const KEYBOARD_HINT_ID = "chart-keyboard-hint";

/** About this many arrow presses cross the visible price range. */
const STEPS_PER_RANGE = 100;
/** Page Up / Page Down move this many steps. */
const PAGE = 10;

/** A round step (1, 2 or 5 × 10^k, at least 0.01) near a hundredth of the range shown. */
export function levelStep(range: number): number {
  const raw = Math.max(range / STEPS_PER_RANGE, 0.01);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  return Number(step.toPrecision(1));
}

/**
 * The keyboard's way to what a pointer does on the plot: the plot is a focusable vertical
 * slider of price levels. ↑ ↓ move the crosshair's price a step (Page Up / Page Down ten, Home
 * / End to the top and bottom of the view), ← → move it from candle to candle (the legend shows
 * that candle), and Enter or Space picks the price for "Create alert at …", as a click does.
 */
export function keyboardLevelPlugin(onPick: (pick: LevelPick) => void): uPlot.Plugin {
  let level: number | undefined;
  let index: number | undefined;

  const visible = (u: uPlot) => {
    const { x, y } = u.scales;
    const xs = u.data[0];
    const first = Math.max(0, u.valToIdx(x?.min ?? 0));
    const last = Math.min(xs.length - 1, u.valToIdx(x?.max ?? 0));
    return { min: y?.min ?? 0, max: y?.max ?? 0, first, last };
  };

  /** Puts the crosshair at the level and candle, inside the view, and says so to the reader. */
  const show = (u: uPlot, crosshair: boolean) => {
    const view = visible(u);
    const close = u.data[CLOSE];
    if (index === undefined || index < view.first || index > view.last) index = view.last;
    const step = levelStep(view.max - view.min);
    if (level === undefined) level = close?.[index] ?? (view.min + view.max) / 2;
    // On a whole step, inside the view (one step in from an edge the rounding crossed).
    let snapped = Math.round(Math.min(view.max, Math.max(view.min, level)) / step) * step;
    if (snapped > view.max) snapped -= step;
    if (snapped < view.min) snapped += step;
    level = snapped;
    const top = u.valToPos(level, "y");
    const shown = levelAt(u, top);
    u.over.setAttribute("aria-valuenow", String(shown));
    u.over.setAttribute("aria-valuetext", formatValue(shown));
    u.over.setAttribute("aria-valuemin", String(levelAt(u, u.over.clientHeight)));
    u.over.setAttribute("aria-valuemax", String(levelAt(u, 0)));
    if (crosshair) u.setCursor({ left: u.valToPos(u.data[0][index] ?? 0, "x"), top });
    return top;
  };

  return {
    hooks: {
      ready: (u) => {
        const over = u.over;
        over.tabIndex = 0;
        over.setAttribute("role", "slider");
        over.setAttribute("aria-orientation", "vertical");
        over.setAttribute("aria-label", "Price level");
        over.setAttribute("aria-describedby", KEYBOARD_HINT_ID);
        show(u, false);
        // Only a keyboard's focus: a click or tap focuses the plot too, and its crosshair is
        // where the pointer is.
        over.addEventListener("focus", () => {
          if (over.matches(":focus-visible")) show(u, true);
        });
        over.addEventListener("blur", () => {
          if (!over.matches(":hover")) u.setCursor({ left: -10, top: -10 });
        });
        over.addEventListener("keydown", (e) => {
          const view = visible(u);
          const step = levelStep(view.max - view.min);
          const at = level ?? 0;
          const moves: Record<string, () => void> = {
            ArrowUp: () => {
              level = at + step;
            },
            ArrowDown: () => {
              level = at - step;
            },
            PageUp: () => {
              level = at + PAGE * step;
            },
            PageDown: () => {
              level = at - PAGE * step;
            },
            Home: () => {
              level = view.max;
            },
            End: () => {
              level = view.min;
            },
            ArrowLeft: () => {
              index = Math.max(view.first, (index ?? view.last) - 1);
            },
            ArrowRight: () => {
              index = Math.min(view.last, (index ?? view.last) + 1);
            },
          };
          const move = moves[e.key];
          if (move) {
            e.preventDefault();
            move();
            show(u, true);
            return;
          }
          if (e.key !== "Enter" && e.key !== " ") return;
          e.preventDefault();
          const top = show(u, true);
          const box = over.getBoundingClientRect();
          const left = u.cursor.left != null && u.cursor.left >= 0 ? u.cursor.left : 0;
          onPick({
            value: levelAt(u, top),
            clientX: box.left + left,
            clientY: box.top + top,
            keyboard: true,
          });
        });
      },
      // A zoom or pan keeps the level where it can, and the slider's range follows the view.
      setScale: (u) => {
        if (u.over.tabIndex === 0) show(u, false);
      },
    },
  };
}
