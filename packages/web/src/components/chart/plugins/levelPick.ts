import type uPlot from "uplot";

export interface LevelPick {
  /** The y value under the pointer. */
  value: number;
  /** Where it was picked, in viewport px. */
  clientX: number;
  clientY: number;
}

/** A press this long without moving picks on touch screens, where there is no click. */
const LONG_PRESS_MS = 500;
/** A pointer that moves further than this between down and up was dragging, not picking. */
const SLOP_PX = 6;

/**
 * A click on the plot (or a long press on touch) picks the price level under it, for
 * "Create alert at …". Shift + drag pans and plain drags are not picks.
 */
export function levelPickPlugin(onPick: (pick: LevelPick) => void): uPlot.Plugin {
  return {
    hooks: {
      ready: (u) => {
        const over = u.over;
        let down: { x: number; y: number; timer?: ReturnType<typeof setTimeout> } | undefined;
        const pick = (clientX: number, clientY: number, touch: boolean) => {
          // A mouse pick takes the crosshair's own position, so the offer matches the value
          // the axis tag shows; a touch has no crosshair to match.
          const cursorTop = u.cursor.top;
          const top =
            !touch && cursorTop != null && cursorTop >= 0
              ? cursorTop
              : clientY - over.getBoundingClientRect().top;
          onPick({ value: u.posToVal(top, "y"), clientX, clientY });
        };
        over.addEventListener("pointerdown", (e) => {
          // A second finger while one is down makes a pinch (touch.ts), never a long press.
          if (e.button !== 0 || e.shiftKey || (e.pointerType === "touch" && down)) {
            clearTimeout(down?.timer);
            down = undefined;
            return;
          }
          down = { x: e.clientX, y: e.clientY };
          if (e.pointerType === "touch") {
            const at = down;
            at.timer = setTimeout(() => {
              if (down === at) pick(at.x, at.y, true);
              down = undefined;
            }, LONG_PRESS_MS);
          }
        });
        over.addEventListener("pointermove", (e) => {
          if (down && Math.hypot(e.clientX - down.x, e.clientY - down.y) > SLOP_PX) {
            clearTimeout(down.timer);
            down = undefined;
          }
        });
        over.addEventListener("pointerup", (e) => {
          const at = down;
          down = undefined;
          if (!at) return;
          clearTimeout(at.timer);
          // Touch picks by long press only: a tap is for the crosshair.
          if (e.pointerType !== "touch") pick(e.clientX, e.clientY, false);
        });
        over.addEventListener("pointercancel", () => {
          clearTimeout(down?.timer);
          down = undefined;
        });
      },
    },
  };
}
