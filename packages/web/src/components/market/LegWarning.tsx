import { type MouseEvent, useRef } from "react";
import type { LegProblem } from "../../market/legProblems.ts";
import { Tooltip } from "../alerts/Tooltip.tsx";

/**
 * The badge of a greyed spread row ("stale", "crossed", "missing"): hovering, focusing or
 * tapping it shows why, one line per input at fault.
 */
export function LegWarning({ problems }: { problems: LegProblem[] }) {
  // Shown by a tap or click, the reason stays until focus moves on, whatever the pointer does.
  const pinned = useRef(false);
  const first = problems[0];
  if (!first) return null;
  const reasons = problems.map((problem) => problem.text);
  return (
    <Tooltip
      content={
        <ul className="tooltip__lines">
          {reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      }
    >
      {(tip) => (
        <button
          type="button"
          {...tip}
          onMouseLeave={() => {
            if (!pinned.current) tip.onMouseLeave();
          }}
          onBlur={() => {
            pinned.current = false;
            tip.onBlur();
          }}
          className="leg-warning"
          data-reason={first.kind}
          aria-label={`Not to be trusted now: ${reasons.join("; ")}`}
          // A tap shows the reason too (touch screens have no hover); the row's own click,
          // which opens the chart, is not triggered.
          onClick={(event: MouseEvent<HTMLButtonElement>) => {
            event.stopPropagation();
            pinned.current = true;
            event.currentTarget.focus({ preventScroll: true });
            tip.onFocus(event);
          }}
        >
          {first.kind}
        </button>
      )}
    </Tooltip>
  );
}
