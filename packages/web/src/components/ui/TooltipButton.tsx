import type { ReactNode } from "react";
import { Tooltip } from "../alerts/Tooltip.tsx";

interface TooltipButtonProps {
  /** What the tooltip explains: shown on hover, on keyboard focus and on a tap. */
  details: ReactNode;
  /** The accessible name; it must begin with the visible text (speech input reads that). */
  label: string;
  children: ReactNode;
  /** data-* attributes the tests and the CSS read. */
  data?: Record<`data-${string}`, string | number>;
}

/**
 * A table figure whose explanation lives in a tooltip: a button, so the keyboard reaches it
 * (Tab shows the details, as hover does) and a tap on a phone does too.
 */
export function TooltipButton({ details, label, children, data }: TooltipButtonProps) {
  return (
    <Tooltip content={details}>
      {(handlers) => (
        <button
          type="button"
          className="cell-button"
          aria-label={label}
          {...data}
          {...handlers}
          // A tap focuses the button (iOS does not by itself), which shows the details;
          // without scrolling, since a scroll hides the tooltip again.
          onClick={(event) => event.currentTarget.focus({ preventScroll: true })}
          // A tap's emulated mouse leaves at once; a focused (tapped, clicked) button keeps
          // its details until it loses focus.
          onMouseLeave={(event) => {
            if (event.currentTarget !== document.activeElement) handlers.onMouseLeave();
          }}
        >
          {children}
        </button>
      )}
    </Tooltip>
  );
}
