import { formatNumber } from "@spreadwatch/core";
import { useEffect, useRef } from "react";

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
    <div ref={box} className="chart-popover" style={{ left, top }} data-testid="chart-popover">
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
