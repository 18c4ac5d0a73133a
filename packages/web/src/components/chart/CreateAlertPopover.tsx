import { formatNumber } from "@spreadwatch/core";
import { useEffect, useLayoutEffect, useRef, useState } from "react";

/** The least room kept between the popover and the chart panel's sides. */
const EDGE_PX = 4;

interface CreateAlertPopoverProps {
  value: number;
  decimals: number;
  /** Where the level was picked, in px from the chart panel's top-left corner. */
  left: number;
  top: number;
  onCreate: (threshold: number) => void;
  onClose: () => void;
  /** Opened from the keyboard: the button takes focus. */
  autoFocus?: boolean;
}

/**
 * The small popover a click (or long press, or Enter on the focused plot) on a price level
 * opens: one button, "Create alert at 123.45", at the level as the axis showed it (not rounded
 * again). Escape or a press elsewhere closes it.
 */
export function CreateAlertPopover({
  value,
  decimals,
  left,
  top,
  onCreate,
  onClose,
  autoFocus = false,
}: CreateAlertPopoverProps) {
  const box = useRef<HTMLDivElement>(null);
  const threshold = value;
  // Centred on the pick, but kept inside the chart panel: a pick near its right edge (the
  // keyboard's starts at the latest candle) would otherwise run off a phone's screen.
  const [shiftX, setShiftX] = useState(0);
  useLayoutEffect(() => {
    const element = box.current;
    const panel = element?.offsetParent;
    if (!element || !panel) return;
    const half = element.offsetWidth / 2;
    const inside = Math.min(Math.max(left, half + EDGE_PX), panel.clientWidth - half - EDGE_PX);
    setShiftX(inside - left);
  }, [left]);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") closeRef.current();
    };
    const onDown = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) closeRef.current();
    };
    document.addEventListener("keydown", onKey);
    // Capture, so the press that picks the next level closes this one before it opens anew.
    document.addEventListener("pointerdown", onDown, true);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onDown, true);
    };
  }, []);

  return (
    <div
      ref={box}
      className="chart-popover"
      style={{ left: left + shiftX, top }}
      data-testid="chart-popover"
    >
      <button
        type="button"
        className="button button--small button--primary"
        onClick={() => onCreate(threshold)}
        // biome-ignore lint/a11y/noAutofocus: only when the keyboard asked for it, from the plot
        autoFocus={autoFocus}
      >
        Create alert at {formatNumber(threshold, decimals)}
      </button>
    </div>
  );
}
