import type uPlot from "uplot";
import { levelAt } from "./axisTags.ts";

export interface LevelPick {
  /** The price level picked, as the y axis shows it (levelAt). */
  value: number;
  /** Where it was picked, in viewport px. */
  clientX: number;
  clientY: number;
  /** Picked with the keyboard: the offer takes focus, and gives it back to the plot. */
  keyboard?: boolean;
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
        // uPlot moves its crosshair on mouse events only, and a long press sends none until the
        // finger lifts, when the browser's emulated mouse lands a fraction of a pixel away: the
        // crosshair stays where the press picked, so its axis tag keeps showing the price
        // offered, until the next press.
        let held: [left: number, top: number] | undefined;
        const move = u.cursor.move ?? ((_u: uPlot, left: number, top: number) => [left, top]);
        u.cursor.move = (self, left, top) => held ?? move(self, left, top);
        const pick = (clientX: number, clientY: number, touch: boolean) => {
          const box = over.getBoundingClientRect();
          if (touch) {
            held = [clientX - box.left, clientY - box.top];
            u.setCursor({ left: held[0], top: held[1] });
          }
          // Either way the offer is the crosshair's own price, rounded as its tag is.
          const cursorTop = u.cursor.top;
          const top = cursorTop != null && cursorTop >= 0 ? cursorTop : clientY - box.top;
          onPick({ value: levelAt(u, top), clientX, clientY });
        };
        over.addEventListener("pointerdown", (e) => {
          held = undefined;
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
